import type { CrmEventOf } from '../../events/crm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type CompanyAdded = CrmEventOf<'CompanyAdded'>;
type ContactAdded = CrmEventOf<'ContactAdded'>;

export type AddCompany = { type: 'AddCompany'; company: CompanyAdded['data'] };

export const companyDecider: Decider<AddCompany, { exists: boolean }, CompanyAdded> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ company }, state) {
    if (state.exists) throw new DomainError('already_exists', `Company ${company.id} exists`);
    return [{ type: 'CompanyAdded', data: company }];
  },
};

export type AddContact = { type: 'AddContact'; contact: ContactAdded['data']; companyExists: boolean };

export const contactDecider: Decider<AddContact, { exists: boolean }, ContactAdded> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ contact, companyExists }, state) {
    if (state.exists) throw new DomainError('already_exists', `Contact ${contact.id} exists`);
    if (!companyExists) throw invalidField('company_id', `company ${contact.company_id} does not exist`);
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(contact.email))
      throw invalidField('email', 'is not an email address');
    return [{ type: 'ContactAdded', data: contact }];
  },
};
