/** The treatment catalogue observations are collected for; `code` is what filters and imports use. */
export const TREATMENT_TYPES = ['Dental', 'Aesthetic', 'Laser', 'Eye surgery', 'Fertility'] as const;
export type TreatmentType = (typeof TREATMENT_TYPES)[number];

export interface Treatment {
  code: string;
  name: string;
  type: TreatmentType;
}

export const TREATMENTS: readonly Treatment[] = [
  { code: 'dental-implant', name: 'Dental implant (single tooth)', type: 'Dental' },
  { code: 'dental-crown', name: 'Ceramic crown', type: 'Dental' },
  { code: 'root-canal', name: 'Root canal treatment (molar)', type: 'Dental' },
  { code: 'teeth-whitening', name: 'In-office teeth whitening', type: 'Dental' },
  { code: 'botulinum-one-area', name: 'Botulinum toxin (one area)', type: 'Aesthetic' },
  { code: 'filler-1ml', name: 'Hyaluronic acid filler (1 ml)', type: 'Aesthetic' },
  { code: 'chemical-peel', name: 'Medium chemical peel', type: 'Aesthetic' },
  { code: 'laser-hair-legs', name: 'Laser hair removal (full legs, per session)', type: 'Laser' },
  { code: 'laser-resurfacing', name: 'Fractional laser resurfacing (face)', type: 'Laser' },
  { code: 'lasik-both-eyes', name: 'LASIK (both eyes)', type: 'Eye surgery' },
  { code: 'cataract-one-eye', name: 'Cataract surgery with monofocal lens (one eye)', type: 'Eye surgery' },
  { code: 'ivf-cycle', name: 'IVF cycle (without medication)', type: 'Fertility' },
];

const byCode = new Map(TREATMENTS.map((treatment) => [treatment.code, treatment]));

export const TREATMENT_CODES = TREATMENTS.map((treatment) => treatment.code) as [string, ...string[]];

export function treatmentOf(code: string): Treatment | undefined {
  return byCode.get(code.trim().toLowerCase());
}
