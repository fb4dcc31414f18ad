import type { SeededRandom } from './random';

/** Company register and VAT numbers in each country's format, drawn from the seed. */

const digits = (random: SeededRandom, count: number) =>
  Array.from({ length: count }, () => String(random.int(0, 9))).join('');

export function companyNumbers(random: SeededRandom, country: string, city: string) {
  switch (country) {
    case 'DE': {
      const number = digits(random, 6);
      return {
        registration_number: `HRB ${number} (Amtsgericht ${city})`,
        vat_number: `DE${digits(random, 9)}`,
      };
    }
    case 'NL':
      return { registration_number: `KvK ${digits(random, 8)}`, vat_number: `NL${digits(random, 9)}B01` };
    case 'FR': {
      const siren = digits(random, 9);
      const spaced = siren.replace(/(\d{3})(\d{3})(\d{3})/, '$1 $2 $3');
      return { registration_number: `RCS ${city} ${spaced}`, vat_number: `FR${digits(random, 2)}${siren}` };
    }
    case 'GB':
      return { registration_number: digits(random, 8), vat_number: `GB${digits(random, 9)}` };
    case 'IE':
      return {
        registration_number: `CRO ${digits(random, 6)}`,
        vat_number: `IE${digits(random, 7)}${String.fromCharCode(65 + random.int(0, 22))}`,
      };
    case 'ES': {
      const cif = `B${digits(random, 8)}`;
      return { registration_number: cif, vat_number: `ES${cif}` };
    }
    case 'IT': {
      const partitaIva = digits(random, 11);
      return { registration_number: `REA MI-${digits(random, 7)}`, vat_number: `IT${partitaIva}` };
    }
    case 'SE': {
      const number = `556${digits(random, 7)}`;
      return { registration_number: `${number.slice(0, 6)}-${number.slice(6)}`, vat_number: `SE${number}01` };
    }
    case 'PL':
      return { registration_number: `KRS ${digits(random, 10)}`, vat_number: `PL${digits(random, 10)}` };
    case 'AT':
      return {
        registration_number: `FN ${digits(random, 6)}${String.fromCharCode(97 + random.int(0, 25))}`,
        vat_number: `ATU${digits(random, 8)}`,
      };
    case 'BE': {
      const number = `0${digits(random, 9)}`;
      return {
        registration_number: number.replace(/(\d{4})(\d{3})(\d{3})/, '$1.$2.$3'),
        vat_number: `BE${number}`,
      };
    }
    case 'DK': {
      const cvr = digits(random, 8);
      return { registration_number: `CVR ${cvr}`, vat_number: `DK${cvr}` };
    }
    case 'CH': {
      const uid = `CHE-${digits(random, 3)}.${digits(random, 3)}.${digits(random, 3)}`;
      return { registration_number: uid, vat_number: `${uid} MWST` };
    }
    default:
      // A US corporation: an employer identification number, and no VAT.
      return { registration_number: `EIN ${digits(random, 2)}-${digits(random, 7)}`, vat_number: null };
  }
}
