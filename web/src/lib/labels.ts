import type { UserType } from '@domain/roles';

export const USER_TYPE_LABELS: Record<UserType, string> = {
  venditore: 'Venditore',
  agenzia: 'Agenzia',
  agente_immobiliare: 'Agente immobiliare',
  agente: 'Agente',
};
