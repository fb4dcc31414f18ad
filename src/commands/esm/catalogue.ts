import type { EsmEventOf } from '../../events/esm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type DepartmentAdded = EsmEventOf<'DepartmentAdded'>;
type ServiceAdded = EsmEventOf<'ServiceAdded'>;

export type AddDepartment = { type: 'AddDepartment'; department: DepartmentAdded['data'] };

export const departmentDecider: Decider<AddDepartment, { exists: boolean }, DepartmentAdded> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide(command, state) {
    if (state.exists) throw new DomainError('already_exists', `Department ${command.department.id} exists`);
    return [{ type: 'DepartmentAdded', data: command.department }];
  },
};

export type AddService = {
  type: 'AddService';
  service: ServiceAdded['data'];
  /** Whether the department the service belongs to exists (when it names one). */
  departmentExists: boolean;
};

export const serviceDecider: Decider<AddService, { exists: boolean }, ServiceAdded> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide(command, state) {
    if (state.exists) throw new DomainError('already_exists', `Service ${command.service.id} exists`);
    if (command.service.department_id !== null && !command.departmentExists) {
      throw invalidField('department_id', `department ${command.service.department_id} does not exist`);
    }
    return [{ type: 'ServiceAdded', data: command.service }];
  },
};
