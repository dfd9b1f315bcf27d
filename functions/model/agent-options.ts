/**
 * The reads of the agents' marketplace (functions/agents/marketplace.ts): the options listed
 * to agents (gsi2 OPTIONS, newest first, filtered), those in one agent's charge (gsi3
 * AGENTOPTIONS#{agentId}), and the PROPERTY items of a list of options in one BatchGetItem.
 * One option item: agent-request.ts readOption.
 */
import { batchGet } from './batch-get';
import { queryAll, table } from './db';
import type { Item } from './item';
import { keys } from './keys';
import type { OptionState } from '../domain/option-lifecycle';
import { optionListed } from './agent-request';

/** Every option listed to agents (published, no agent assigned, not past its expiry day `today`), newest first. */
export async function listedOptionItems(today: string): Promise<Item[]> {
  const q = keys.allOptions();
  const listed = optionListed(today);
  const options: Item[] = [];
  await queryAll(
    {
      TableName: table(),
      IndexName: q.index,
      KeyConditionExpression: 'gsi2pk = :pk',
      FilterExpression: listed.expression,
      ExpressionAttributeNames: listed.names,
      ExpressionAttributeValues: { ':pk': q.pk, ...listed.values },
      ScanIndexForward: false,
    },
    (item) => {
      options.push(item);
    },
  );
  return options;
}

/** The options in an agent's charge (assigned to them and not closed since: cancelled, expired, exercised), newest assignment first. */
export async function optionItemsOfAgent(agentId: string): Promise<Item[]> {
  const q = keys.optionsOfAgent(agentId);
  const options: Item[] = [];
  await queryAll(
    { TableName: table(), IndexName: q.index, KeyConditionExpression: 'gsi3pk = :pk', ExpressionAttributeValues: { ':pk': q.pk }, ScanIndexForward: false },
    (item) => {
      // the index lags the table by a moment; the item itself is the truth. A closed option
      // keeps its agent (the record of who had it) but is no longer in their charge
      if (item.assignedAgentId === agentId && item.status === ('assigned' satisfies OptionState)) options.push(item);
    },
  );
  return options;
}

/** The PROPERTY items of the given properties (one BatchGetItem), by property id; a missing one is absent. */
export async function propertyItemsById(propertyIds: readonly string[]): Promise<Map<string, Item>> {
  const got = await batchGet(propertyIds.map((id) => keys.property(id)));
  const out = new Map<string, Item>();
  for (const id of propertyIds) {
    const key = keys.property(id);
    const item = got.get(`${key.pk}|${key.sk}`);
    if (item) out.set(id, item);
  }
  return out;
}
