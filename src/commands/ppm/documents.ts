import type { PpmEventOf } from '../../events/ppm';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type DocumentRegistered = PpmEventOf<'DocumentRegistered'>;

export interface RegisterDocument {
  type: 'RegisterDocument';
  document: DocumentRegistered['data'];
  projectExists: boolean;
}

/** Extracted and Needs Review carry the extraction time; Failed carries its error; the others neither. */
function checkExtraction(document: DocumentRegistered['data']): void {
  const extracted = document.status === 'Extracted' || document.status === 'Needs Review';
  if (extracted !== (document.extracted_at !== null)) {
    throw invalidField(
      'extracted_at',
      `is ${extracted ? 'required' : 'not allowed'} while ${document.status}`,
    );
  }
  if ((document.status === 'Failed') !== (document.extraction_error !== null)) {
    throw invalidField('extraction_error', 'is set exactly when the extraction Failed');
  }
}

export const documentDecider: Decider<RegisterDocument, { exists: boolean }, DocumentRegistered> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ document, projectExists }, state) {
    if (state.exists) throw new DomainError('already_exists', `Document ${document.id} exists`);
    if (!projectExists) throw invalidField('project_id', `project ${document.project_id} does not exist`);
    checkExtraction(document);
    return [{ type: 'DocumentRegistered', data: document }];
  },
};
