import { z } from 'zod';
import { MEMBER_ROLES, clmCollections } from '../../events/clm';
import { CounterpartyRecord, MemberRecord, WorkspaceRecord } from '../../projections/clm';
import type { ResourceDefinition } from '../kit/module';
import { enumFilter } from '../kit/parameters';

/** The caller's own workspace (the only one a list shows). */
export const workspaces: ResourceDefinition = {
  path: 'workspaces',
  name: 'Workspace',
  description: 'the caller\u2019s workspace',
  record: WorkspaceRecord,
  scopeField: 'id',
  // No stream of its own holds all its events: its member count follows the members' events.
  collection: {
    name: clmCollections.workspaces,
    idKind: 'string',
    searchFields: ['name', 'legal_name'],
    filterFields: ['id'],
  },
};

export const members: ResourceDefinition = {
  path: 'members',
  name: 'Member',
  description: 'members of the workspace and their roles',
  record: MemberRecord,
  scopeField: 'workspace_id',
  collection: {
    name: clmCollections.members,
    idKind: 'string',
    searchFields: ['name', 'email', 'job_title'],
    filterFields: ['workspace_id', 'role'],
  },
  filters: { role: enumFilter('role', MEMBER_ROLES) },
};

export const counterparties: ResourceDefinition = {
  path: 'counterparties',
  name: 'Counterparty',
  description: 'counterparties with registration, VAT, address, contacts and contract counts',
  record: CounterpartyRecord,
  scopeField: 'workspace_id',
  // No stream of its own holds all its events: its contract counts follow the contracts' events.
  collection: {
    name: clmCollections.counterparties,
    idKind: 'string',
    searchFields: ['legal_name', 'trading_name', 'registration_number', 'vat_number'],
    filterFields: ['workspace_id', 'country'],
  },
  filters: {
    country: {
      field: 'country',
      schema: z
        .string()
        .regex(/^[A-Za-z]{2}$/, 'Input should be a two-letter country code such as DE')
        .transform((code) => code.toUpperCase())
        .meta({ type: 'string' }),
      description: 'ISO 3166-1 alpha-2 country of registration, e.g. DE',
    },
  },
};
