import { personalPlaces } from '../../src/privacy/personal-places';

const ADA = 'hrm.employee-1';
const BOB = 'mail.contact-2';

describe('the places of a copied document that hold personal values', () => {
  it('names each field holding a value of a subject, and no other', () => {
    const body = { employee_id: 1, leave_type: 'Sick Leave', description: 'Migraine', half_day: false };
    expect(personalPlaces(body, [{ subject: ADA, value: 'Migraine' }])).toEqual([
      { subject: ADA, field: 'description' },
    ]);
  });

  it('finds a value the write trimmed or lower-cased, and a text built of several (a full name)', () => {
    const result = { employee_name: 'Ada Lovelace', email: '  ADA@Example.com ', status: 'Open' };
    const values = [
      { subject: ADA, value: 'Lovelace' },
      { subject: ADA, value: 'ada@example.com' },
    ];
    expect(personalPlaces(result, values)).toEqual([
      { subject: ADA, field: 'employee_name' },
      { subject: ADA, field: 'email' },
    ]);
  });

  it('names array items by index, each under its own subject, and a whole object equal to a value', () => {
    const body = {
      to: [
        { name: 'Ada Lovelace', email: 'ada@example.com' },
        { name: 'Bob Byte', email: 'bob@example.com' },
      ],
      form_data: { phone: '+44 20 7946 0000', rooms: 2 },
    };
    const values = [
      { subject: ADA, value: 'ada@example.com' },
      { subject: BOB, value: 'Bob Byte' },
      { subject: ADA, value: { phone: '+44 20 7946 0000', rooms: 2 } },
    ];
    expect(personalPlaces(body, values)).toEqual([
      { subject: ADA, field: 'to.0.email' },
      { subject: BOB, field: 'to.1.name' },
      { subject: ADA, field: 'form_data' },
    ]);
  });

  it('seals the container of a field whose name a path cannot spell', () => {
    const body = { answers: { 'e.mail': 'ada@example.com' } };
    expect(personalPlaces(body, [{ subject: ADA, value: 'ada@example.com' }])).toEqual([
      { subject: ADA, field: 'answers' },
    ]);
  });

  it('takes no number or flag for someone’s, and a short text only whole: ids and texts that hold an initial stay readable', () => {
    const body = { employee_id: 7, active: true, initial: 'Al', note: 'Al said hi' };
    const values = [
      { subject: ADA, value: 7 },
      { subject: ADA, value: true },
      { subject: ADA, value: 'Al' },
    ];
    expect(personalPlaces(body, values)).toEqual([{ subject: ADA, field: 'initial' }]);
  });
});
