import type { CmsEventOf } from '../../events/cms';
import type { Decider } from '../decider';
import { DomainError, invalidField } from '../errors';

type ImageUploaded = CmsEventOf<'ImageUploaded'>;
type DocumentUploaded = CmsEventOf<'DocumentUploaded'>;

export type UploadImage = { type: 'UploadImage'; image: ImageUploaded['data'] };

export const imageDecider: Decider<UploadImage, { exists: boolean }, ImageUploaded> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ image }, state) {
    if (state.exists) throw new DomainError('already_exists', `Image ${image.id} exists`);
    const focal = image.focal_point;
    if (focal && (focal.x + focal.width / 2 > image.width || focal.y + focal.height / 2 > image.height)) {
      throw invalidField('focal_point', 'must lie within the image');
    }
    return [{ type: 'ImageUploaded', data: image }];
  },
};

export type UploadDocument = { type: 'UploadDocument'; document: DocumentUploaded['data'] };

export const documentDecider: Decider<UploadDocument, { exists: boolean }, DocumentUploaded> = {
  initialState: () => ({ exists: false }),
  evolve: () => ({ exists: true }),
  decide({ document }, state) {
    if (state.exists) throw new DomainError('already_exists', `Document ${document.id} exists`);
    return [{ type: 'DocumentUploaded', data: document }];
  },
};
