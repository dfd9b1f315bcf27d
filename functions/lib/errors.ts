/**
 * Typed errors. Handlers and use cases throw these; `toResponse` in http.ts maps each
 * to its status code and Italian message. Anything else becomes a generic 500 whose
 * details stay in the logs.
 */
import { ADMIN_MFA_MESSAGE } from '../domain/admin-security';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message = 'Dati non validi', readonly fields?: Record<string, string>) {
    super(400, 'VALIDATION', message, fields ? { fields } : undefined);
  }
}

export class UnauthorizedError extends AppError {
  constructor(message = 'Accesso richiesto') {
    super(401, 'UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = 'Non hai i permessi per accedere a questa risorsa') {
    super(403, 'FORBIDDEN', message);
  }
}

/** An admin route called by an admin whose token has no MFA (TOTP not set up). */
export class MfaRequiredError extends AppError {
  constructor() {
    super(403, 'MFA_REQUIRED', ADMIN_MFA_MESSAGE);
  }
}

export class NotFoundError extends AppError {
  constructor(message = 'Risorsa non trovata') {
    super(404, 'NOT_FOUND', message);
  }
}

export class ConflictError extends AppError {
  /** `code`: a more precise reason the client may tell apart (default CONFLICT) */
  constructor(message = 'La risorsa è stata modificata da un altro utente. Ricarica la pagina.', code = 'CONFLICT') {
    super(409, code, message);
  }
}

export class GoneError extends AppError {
  constructor(message = 'Link non valido o scaduto') {
    super(410, 'GONE', message);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(message = 'Troppe richieste. Riprova tra qualche minuto.') {
    super(429, 'TOO_MANY_REQUESTS', message);
  }
}

export const GENERIC_ERROR_MESSAGE = 'Si è verificato un errore. Riprova più tardi.';
