export { clearApprovalRequirement, requireApproval } from './commands';
export { policyEvents } from './events';
export { policiesCollection, policiesProjection, policyOf, type PolicyRecord } from './projection';
export { policiesInLog } from './records';
