/**
 * The agent asks to take an option in charge (spec agent_assignment_requests): the use case
 * of POST /agent/options/{propertyId}/requests. The item and its conditional writes are in
 * model/agent-request.ts.
 */
import { ConflictError, NotFoundError, ValidationError } from '../lib/errors';
import { logger } from '../lib/logger';
import { getProfile } from '../model/profile';
import { isPropertyId, readProperty } from '../model/property';
import {
  commissionRangeOf,
  isListed,
  openRequestCount,
  readAgentRequest,
  readOption,
  requestSnapshot,
  requestsVersionOf,
  saveAgentRequest,
} from '../model/agent-request';
import {
  AGENT_MESSAGES,
  MAX_OPEN_REQUESTS_PER_OPTION,
  agentRequestStatusLabel,
  commissionError,
  type CreateAgentRequestResult,
} from '../domain/agent-requests';
import { todayInRome } from '../domain/availability';

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A new request (pending), or a rejected one asked again (pending with the new commission).
 * The option must be listed and the commission one of the slider's values. Two simultaneous
 * requests of the same agent: the item's condition lets exactly one through; the other is
 * told 'Hai già richiesto questa opzione'. At most MAX_OPEN_REQUESTS_PER_OPTION open requests
 * on one option, a request asked again included: they are counted after reading the option's
 * requests version, and the save raises that version only if no other request was saved
 * meanwhile (model/agent-request.ts). A save that lost to another agent's on the same option
 * is tried again from a fresh read, at most 5 times.
 */
export async function requestOption(
  agent: { userId: string; email: string },
  propertyId: string,
  commissionPercentage: number,
  now = new Date(),
): Promise<CreateAgentRequestResult> {
  if (!isPropertyId(propertyId)) throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
  for (let attempt = 1; ; attempt++) {
    const [option, property, existing] = await Promise.all([
      readOption(propertyId),
      readProperty(propertyId),
      readAgentRequest(propertyId, agent.userId),
    ]);
    if (!option || !property) throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
    if (!isListed(option, todayInRome(now))) throw new ConflictError(AGENT_MESSAGES.optionUnavailable, 'OPTION_UNAVAILABLE');
    const range = commissionRangeOf(option);
    const problem = commissionError(range.min, range.max, commissionPercentage);
    if (problem) throw new ValidationError(problem, { commissionPercentage: problem });
    if (existing && existing.status !== 'rejected') {
      throw new ConflictError(AGENT_MESSAGES.exists(agentRequestStatusLabel(String(existing.status))), 'REQUEST_EXISTS');
    }
    // a rejected request asked again opens one more too
    if ((await openRequestCount(propertyId)) >= MAX_OPEN_REQUESTS_PER_OPTION) {
      throw new ConflictError(AGENT_MESSAGES.tooManyOpen, 'TOO_MANY_REQUESTS');
    }

    const profile = await getProfile(agent.userId);
    const snapshot = requestSnapshot(option, property, { name: profile?.fullName || agent.email, email: profile?.email || agent.email }, commissionPercentage);
    const saved = await saveAgentRequest({ propertyId, agentId: agent.userId, existing, snapshot, at: now.toISOString(), optionVersion: requestsVersionOf(option) });
    switch (saved.outcome) {
      case 'duplicate':
        throw new ConflictError(AGENT_MESSAGES.duplicate, 'DUPLICATE_REQUEST');
      case 'property_gone':
        throw new NotFoundError(AGENT_MESSAGES.optionNotFound);
      case 'option_moved':
      case 'conflict':
        // no longer listed (the next read says so), or another agent's request saved on the
        // same option meanwhile: read again and retry
        if (attempt >= 5) throw new ConflictError();
        await pause(20 * attempt + Math.random() * 30);
        continue;
    }
    logger.info('Agent request saved', { propertyId, agentId: agent.userId, requestId: saved.request.id, outcome: saved.outcome });
    return { outcome: saved.outcome, request: saved.request };
  }
}
