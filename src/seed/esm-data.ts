/**
 * Static demo content for the enterprise service management (service desk) module:
 * departments, the service catalogue with request forms, and knowledge-base articles.
 *
 * Every `requests[].form_data` validates against its service's `form_schema` (JSON Schema 2020-12).
 */

export interface DepartmentSeed {
  key: string;
  name: string;
  icon: string;
}

export interface RequestTemplate {
  title: string;
  form_data: Record<string, unknown>;
}

export interface ServiceSeed {
  /** A `DepartmentSeed.key`. */
  department: string;
  name: string;
  category: string;
  /** One or two sentences. */
  description: string;
  /** A Material Symbols icon name. */
  icon: string;
  /** Integer resolution target in hours at Medium priority (4..120). */
  sla_hours: number;
  requires_approval: boolean;
  is_active: boolean;
  /** A JSON Schema (draft 2020-12) describing the request form. */
  form_schema: Record<string, unknown>;
  /** Realistic request titles, each with form data that validates against `form_schema`. */
  requests: RequestTemplate[];
}

export interface ArticleSeed {
  /** A `DepartmentSeed.key`. */
  department: string;
  /** 1 How-to, 2 Troubleshooting, 3 Policy, 4 FAQ, 5 Onboarding, 6 Security. */
  category_id: number;
  title: string;
  /** Markdown. */
  content: string;
  author: string;
  status: 'Draft' | 'Published' | 'Archived';
}

export const DEPARTMENTS: readonly DepartmentSeed[] = [
  { key: 'it', name: 'IT', icon: 'computer' },
  { key: 'hr', name: 'Human Resources', icon: 'groups' },
  { key: 'facilities', name: 'Facilities', icon: 'apartment' },
  { key: 'finance', name: 'Finance', icon: 'account_balance' },
  { key: 'legal', name: 'Legal', icon: 'gavel' },
  { key: 'procurement', name: 'Procurement', icon: 'shopping_cart' },
  { key: 'infosec', name: 'Information Security', icon: 'shield' },
  { key: 'comms', name: 'Communications', icon: 'campaign' },
];

/** The staff who work requests, by the department they sit in. */
export const AGENTS: readonly { name: string; department: string }[] = [
  { name: 'Priya Raman', department: 'it' },
  { name: 'Tom Okafor', department: 'it' },
  { name: 'Lena Fischer', department: 'it' },
  { name: 'Marco Bianchi', department: 'facilities' },
  { name: 'Aisha Karim', department: 'hr' },
  { name: 'Jonas Berg', department: 'finance' },
  { name: 'Sofia Duarte', department: 'infosec' },
  { name: 'Daniel Wu', department: 'procurement' },
];

/** An agent's first reply to a requester. */
export const REPLIES: readonly string[] = [
  'Thanks for your request. I have picked it up and will update you here as it moves.',
  'We have everything we need to go ahead; I will confirm once it is done.',
  'Could you tell us when you need this by? It helps us plan the work.',
  'This is with the supplier now. Expect an update within two working days.',
  'I have scheduled this for this week and will let you know when it is ready.',
];

export const SERVICES: readonly ServiceSeed[] = [
  // ---------------------------------------------------------------- IT
  {
    department: 'it',
    name: 'New Laptop Request',
    category: 'Hardware',
    description:
      'Request a standard or performance laptop for a new starter, a replacement or an additional device. ' +
      'Devices are imaged, encrypted and enrolled in device management before handover.',
    icon: 'laptop_mac',
    sla_hours: 72,
    requires_approval: true,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'New laptop request',
      properties: {
        model: {
          type: 'string',
          title: 'Model',
          enum: ['Standard 14-inch', 'Performance 16-inch', 'MacBook Air 13-inch', 'MacBook Pro 14-inch'],
        },
        reason: {
          type: 'string',
          title: 'Reason',
          enum: ['New starter', 'Replacement (faulty)', 'Replacement (end of life)', 'Additional device'],
        },
        operating_system: { type: 'string', title: 'Operating system', enum: ['Windows 11', 'macOS'] },
        needed_by: { type: 'string', title: 'Needed by', format: 'date' },
        cost_centre: { type: 'string', title: 'Cost centre', pattern: '^CC-[0-9]{4}$' },
        justification: { type: 'string', title: 'Business justification', maxLength: 1000 },
      },
      required: ['model', 'reason', 'needed_by', 'cost_centre'],
    },
    requests: [
      {
        title: 'Laptop for new data analyst starting 2 March',
        form_data: {
          model: 'Performance 16-inch',
          reason: 'New starter',
          operating_system: 'Windows 11',
          needed_by: '2026-02-27',
          cost_centre: 'CC-4120',
          justification: 'Runs large Power BI and Python models; standard spec is not sufficient.',
        },
      },
      {
        title: 'Replacement laptop - screen flickering and hinge cracked',
        form_data: {
          model: 'Standard 14-inch',
          reason: 'Replacement (faulty)',
          operating_system: 'Windows 11',
          needed_by: '2026-02-20',
          cost_centre: 'CC-2310',
        },
      },
      {
        title: 'MacBook Pro for iOS developer',
        form_data: {
          model: 'MacBook Pro 14-inch',
          reason: 'New starter',
          operating_system: 'macOS',
          needed_by: '2026-03-09',
          cost_centre: 'CC-5502',
          justification: 'Xcode and the iOS simulator only run on macOS.',
        },
      },
      {
        title: 'Laptop battery only lasts 40 minutes, need a replacement',
        form_data: {
          model: 'Standard 14-inch',
          reason: 'Replacement (end of life)',
          needed_by: '2026-03-16',
          cost_centre: 'CC-3105',
          justification: 'Device is over four years old and out of warranty.',
        },
      },
      {
        title: 'Lighter laptop for field sales travel',
        form_data: {
          model: 'MacBook Air 13-inch',
          reason: 'Replacement (end of life)',
          operating_system: 'macOS',
          needed_by: '2026-04-01',
          cost_centre: 'CC-6200',
          justification: 'Travelling to customer sites four days a week.',
        },
      },
    ],
  },
  {
    department: 'it',
    name: 'Software Access Request',
    category: 'Access',
    description:
      'Request access to, or a licence for, an approved business application. ' +
      'Paid licences and administrator access need line manager and application owner approval.',
    icon: 'apps',
    sla_hours: 24,
    requires_approval: true,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Software access request',
      properties: {
        application: {
          type: 'string',
          title: 'Application',
          enum: [
            'Salesforce',
            'Jira',
            'Confluence',
            'Adobe Acrobat Pro',
            'Figma',
            'Tableau',
            'Power BI Pro',
            'GitHub Enterprise',
            'NetSuite',
          ],
        },
        access_level: {
          type: 'string',
          title: 'Access level',
          enum: ['Read only', 'Standard user', 'Administrator'],
        },
        licence_required: { type: 'boolean', title: 'A paid licence is required' },
        manager_email: { type: 'string', title: 'Line manager email', format: 'email' },
        justification: { type: 'string', title: 'Business justification', minLength: 10, maxLength: 1000 },
      },
      required: ['application', 'access_level', 'justification'],
    },
    requests: [
      {
        title: 'Need a Tableau licence for quarterly sales dashboards',
        form_data: {
          application: 'Tableau',
          access_level: 'Standard user',
          licence_required: true,
          manager_email: 'rachel.dunmore@example.com',
          justification: 'Building the quarterly sales dashboards previously maintained in Excel.',
        },
      },
      {
        title: 'Jira access for new contractor on the payments project',
        form_data: {
          application: 'Jira',
          access_level: 'Standard user',
          licence_required: true,
          manager_email: 'tom.achebe@example.com',
          justification: 'Contractor needs to log and update tickets on the PAY board until June.',
        },
      },
      {
        title: 'Adobe Acrobat Pro to edit and sign supplier PDFs',
        form_data: {
          application: 'Adobe Acrobat Pro',
          access_level: 'Standard user',
          licence_required: true,
          justification: 'Procurement team edits and redacts supplier contracts received as PDFs.',
        },
      },
      {
        title: 'Admin rights in Salesforce for the CRM migration',
        form_data: {
          application: 'Salesforce',
          access_level: 'Administrator',
          licence_required: false,
          manager_email: 'helen.marsh@example.com',
          justification: 'Temporary admin needed to configure page layouts during the migration sprint.',
        },
      },
      {
        title: 'Read-only Power BI access for finance reports',
        form_data: {
          application: 'Power BI Pro',
          access_level: 'Read only',
          licence_required: false,
          justification: 'View the monthly management accounts dashboard shared by Finance.',
        },
      },
    ],
  },
  {
    department: 'it',
    name: 'VPN Access',
    category: 'Access',
    description:
      'Request remote access to the corporate network from a company-managed device. ' +
      'Third-party and privileged network access is time-limited and needs approval.',
    icon: 'vpn_lock',
    sla_hours: 8,
    requires_approval: true,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'VPN access request',
      properties: {
        access_type: {
          type: 'string',
          title: 'Access type',
          enum: ['Standard remote working', 'Third party or contractor', 'Privileged network segment'],
        },
        device: { type: 'string', title: 'Device', enum: ['Company laptop', 'Company mobile device'] },
        start_date: { type: 'string', title: 'Start date', format: 'date' },
        end_date: { type: 'string', title: 'End date (leave blank for permanent staff)', format: 'date' },
        reason: { type: 'string', title: 'Reason', minLength: 10 },
      },
      required: ['access_type', 'device', 'start_date', 'reason'],
    },
    requests: [
      {
        title: 'VPN access for working from home on Fridays',
        form_data: {
          access_type: 'Standard remote working',
          device: 'Company laptop',
          start_date: '2026-02-20',
          reason: 'Agreed hybrid working pattern; need the shared drives when at home.',
        },
      },
      {
        title: 'Remote access for external auditor until end of March',
        form_data: {
          access_type: 'Third party or contractor',
          device: 'Company laptop',
          start_date: '2026-03-02',
          end_date: '2026-03-31',
          reason: 'Year-end audit fieldwork needs read access to the finance file share.',
        },
      },
      {
        title: 'VPN to reach the finance reporting server while travelling',
        form_data: {
          access_type: 'Standard remote working',
          device: 'Company laptop',
          start_date: '2026-02-23',
          reason: 'Month-end reporting must be run during a two-week overseas trip.',
        },
      },
      {
        title: 'Need VPN on my phone for the on-call support rota',
        form_data: {
          access_type: 'Standard remote working',
          device: 'Company mobile device',
          start_date: '2026-03-01',
          reason: 'Joining the out-of-hours rota and need to check monitoring alerts.',
        },
      },
      {
        title: 'VPN access to the lab network for firmware testing',
        form_data: {
          access_type: 'Privileged network segment',
          device: 'Company laptop',
          start_date: '2026-03-09',
          end_date: '2026-05-29',
          reason: 'Remote flashing of test devices on the isolated lab VLAN.',
        },
      },
    ],
  },
  {
    department: 'it',
    name: 'Password Reset',
    category: 'Accounts',
    description:
      'Get help if you are locked out, have forgotten a password or need your multi-factor ' +
      'authentication reset. Try the self-service reset page first.',
    icon: 'lock_reset',
    sla_hours: 4,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Password reset',
      properties: {
        system: {
          type: 'string',
          title: 'System',
          enum: ['Network / Windows login', 'Email', 'SAP', 'Salesforce', 'Payroll portal', 'Other'],
        },
        username: { type: 'string', title: 'Username', minLength: 2 },
        locked_out: { type: 'boolean', title: 'I am locked out' },
        mfa_reset_needed: { type: 'boolean', title: 'My authenticator app or phone is lost or replaced' },
        contact_phone: { type: 'string', title: 'Phone number to call you back on' },
      },
      required: ['system', 'username', 'locked_out'],
    },
    requests: [
      {
        title: 'Locked out of my account after holiday',
        form_data: {
          system: 'Network / Windows login',
          username: 'j.whitfield',
          locked_out: true,
          contact_phone: '07700 900412',
        },
      },
      {
        title: 'Forgot my SAP password',
        form_data: { system: 'SAP', username: 'SMURPHY01', locked_out: false },
      },
      {
        title: 'Password expired while on leave, cannot log in to laptop',
        form_data: {
          system: 'Network / Windows login',
          username: 'a.kowalski',
          locked_out: true,
          contact_phone: '07700 900187',
        },
      },
      {
        title: 'Lost phone with authenticator app, need MFA reset',
        form_data: {
          system: 'Email',
          username: 'l.fernandes',
          locked_out: true,
          mfa_reset_needed: true,
          contact_phone: '020 7946 0321',
        },
      },
      {
        title: 'Payroll portal says my password is invalid',
        form_data: { system: 'Payroll portal', username: 'E104233', locked_out: false },
      },
    ],
  },
  {
    department: 'it',
    name: 'Desk Phone Request',
    category: 'Telephony',
    description:
      'Retired: desk phones have been replaced by Teams calling. ' +
      'Headsets can be ordered through the Purchase Request service instead.',
    icon: 'call',
    sla_hours: 72,
    requires_approval: false,
    is_active: false,
    form_schema: {
      type: 'object',
      title: 'Desk phone request',
      properties: {
        request_type: {
          type: 'string',
          title: 'Request type',
          enum: ['New desk phone', 'Replacement handset', 'Conference phone', 'Extension move'],
        },
        location: { type: 'string', title: 'Desk or room' },
        extension: { type: 'string', title: 'Extension', pattern: '^[0-9]{4}$' },
      },
      required: ['request_type', 'location'],
    },
    requests: [
      {
        title: 'Desk phone for the main reception',
        form_data: { request_type: 'New desk phone', location: 'Ground floor reception' },
      },
      {
        title: 'Replace broken handset on desk 3.14',
        form_data: { request_type: 'Replacement handset', location: 'Desk 3.14', extension: '4471' },
      },
      {
        title: 'Conference phone for small meeting room',
        form_data: { request_type: 'Conference phone', location: 'Meeting room 2.03' },
      },
      {
        title: 'Move my extension to my new desk',
        form_data: { request_type: 'Extension move', location: 'Desk 5.22', extension: '4128' },
      },
    ],
  },
  // ---------------------------------------------------------------- HR
  {
    department: 'hr',
    name: 'Onboard a New Hire',
    category: 'Onboarding',
    description:
      'Hiring managers start onboarding here once an offer is accepted. HR issues the contract and ' +
      'triggers the IT, facilities and payroll tasks needed for day one.',
    icon: 'person_add',
    sla_hours: 120,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'New hire onboarding',
      properties: {
        employee_name: { type: 'string', title: 'New hire full name', minLength: 2 },
        job_title: { type: 'string', title: 'Job title' },
        team: { type: 'string', title: 'Team' },
        start_date: { type: 'string', title: 'Start date', format: 'date' },
        employment_type: {
          type: 'string',
          title: 'Employment type',
          enum: ['Permanent', 'Fixed-term', 'Contractor', 'Intern'],
        },
        work_pattern: { type: 'string', title: 'Work pattern', enum: ['Office', 'Hybrid', 'Remote'] },
        line_manager_email: { type: 'string', title: 'Line manager email', format: 'email' },
        equipment_needed: { type: 'boolean', title: 'Laptop and accessories needed' },
      },
      required: ['employee_name', 'job_title', 'start_date', 'employment_type', 'line_manager_email'],
    },
    requests: [
      {
        title: 'Onboarding for Priya Natarajan, Senior Accountant, starting 2 March',
        form_data: {
          employee_name: 'Priya Natarajan',
          job_title: 'Senior Accountant',
          team: 'Financial Control',
          start_date: '2026-03-02',
          employment_type: 'Permanent',
          work_pattern: 'Hybrid',
          line_manager_email: 'graham.pike@example.com',
          equipment_needed: true,
        },
      },
      {
        title: 'New graduate software engineer joining 7 September',
        form_data: {
          employee_name: 'Oliver Brennan',
          job_title: 'Graduate Software Engineer',
          team: 'Platform Engineering',
          start_date: '2026-09-07',
          employment_type: 'Permanent',
          work_pattern: 'Office',
          line_manager_email: 'sanjay.mehta@example.com',
          equipment_needed: true,
        },
      },
      {
        title: 'Contractor onboarding - six-month data migration role',
        form_data: {
          employee_name: 'Katarzyna Nowak',
          job_title: 'Data Migration Consultant',
          team: 'Business Systems',
          start_date: '2026-03-16',
          employment_type: 'Contractor',
          work_pattern: 'Remote',
          line_manager_email: 'helen.marsh@example.com',
          equipment_needed: false,
        },
      },
      {
        title: 'Summer intern for the marketing team',
        form_data: {
          employee_name: 'Amara Osei',
          job_title: 'Marketing Intern',
          team: 'Brand Marketing',
          start_date: '2026-06-22',
          employment_type: 'Intern',
          work_pattern: 'Office',
          line_manager_email: 'chloe.barrett@example.com',
          equipment_needed: true,
        },
      },
      {
        title: 'Onboard replacement office manager for the regional office',
        form_data: {
          employee_name: 'Gareth Lloyd',
          job_title: 'Office Manager',
          start_date: '2026-04-07',
          employment_type: 'Fixed-term',
          line_manager_email: 'fiona.mcallister@example.com',
        },
      },
    ],
  },
  {
    department: 'hr',
    name: 'Parental Leave Enquiry',
    category: 'Leave',
    description:
      'Ask HR about maternity, paternity, adoption or shared parental leave and pay. ' +
      'Enquiries are handled confidentially by the HR advisory team.',
    icon: 'family_restroom',
    sla_hours: 48,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Parental leave enquiry',
      properties: {
        leave_type: {
          type: 'string',
          title: 'Leave type',
          enum: ['Maternity', 'Paternity', 'Adoption', 'Shared parental', 'Unpaid parental'],
        },
        expected_date: { type: 'string', title: 'Expected due or placement date', format: 'date' },
        planned_weeks: { type: 'integer', title: 'Planned weeks of leave', minimum: 1, maximum: 52 },
        question: { type: 'string', title: 'Your question', minLength: 10 },
      },
      required: ['leave_type', 'question'],
    },
    requests: [
      {
        title: 'How much maternity pay will I receive?',
        form_data: {
          leave_type: 'Maternity',
          expected_date: '2026-08-14',
          planned_weeks: 39,
          question: 'I have been here three years. How much enhanced pay am I entitled to and for how long?',
        },
      },
      {
        title: 'Can I split my paternity leave into two blocks?',
        form_data: {
          leave_type: 'Paternity',
          expected_date: '2026-05-03',
          planned_weeks: 2,
          question: 'Can I take one week at the birth and the second week a month later?',
        },
      },
      {
        title: 'Shared parental leave - how do I notify HR?',
        form_data: {
          leave_type: 'Shared parental',
          expected_date: '2026-07-20',
          planned_weeks: 12,
          question: 'My partner is returning to work early. What forms do I need and by when?',
        },
      },
      {
        title: 'Adoption leave for a placement next month',
        form_data: {
          leave_type: 'Adoption',
          expected_date: '2026-03-23',
          question:
            'We have just been matched. What notice do I need to give and is pay the same as maternity?',
        },
      },
      {
        title: 'Keeping-in-touch days during maternity leave',
        form_data: {
          leave_type: 'Maternity',
          question: 'How many KIT days can I work, and how are they paid?',
        },
      },
    ],
  },
  {
    department: 'hr',
    name: 'Payroll Correction',
    category: 'Payroll',
    description:
      'Report an error on your payslip such as missing overtime, a wrong deduction or an incorrect tax ' +
      'code. Corrections confirmed before the 15th are paid in the same month.',
    icon: 'payments',
    sla_hours: 72,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Payroll correction',
      properties: {
        pay_period: { type: 'string', title: 'Pay period (YYYY-MM)', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' },
        issue_type: {
          type: 'string',
          title: 'Issue',
          enum: [
            'Underpayment',
            'Overpayment',
            'Missing overtime',
            'Incorrect tax code',
            'Incorrect deduction',
            'Missing allowance',
          ],
        },
        amount: { type: 'number', title: 'Amount affected (GBP)', minimum: 0 },
        employee_id: { type: 'string', title: 'Employee ID', pattern: '^E[0-9]{6}$' },
        details: { type: 'string', title: 'Details', minLength: 10 },
      },
      required: ['pay_period', 'issue_type', 'details'],
    },
    requests: [
      {
        title: 'Overtime from January not paid',
        form_data: {
          pay_period: '2026-01',
          issue_type: 'Missing overtime',
          amount: 186.4,
          employee_id: 'E104233',
          details: 'Eight hours of weekend overtime approved by my manager on 24 January.',
        },
      },
      {
        title: 'Pension deduction taken twice this month',
        form_data: {
          pay_period: '2026-02',
          issue_type: 'Incorrect deduction',
          amount: 212.5,
          employee_id: 'E100871',
          details: 'Two pension contribution lines appear on my February payslip.',
        },
      },
      {
        title: 'Wrong tax code applied since my promotion',
        form_data: {
          pay_period: '2026-01',
          issue_type: 'Incorrect tax code',
          details: 'Tax code changed to BR after my promotion in December; it should be 1257L.',
        },
      },
      {
        title: 'Paid for the full month despite leaving on the 15th',
        form_data: {
          pay_period: '2026-02',
          issue_type: 'Overpayment',
          amount: 1540,
          details: 'Final salary covered the whole month; I want to arrange repayment.',
        },
      },
      {
        title: 'On-call allowance missing from February payslip',
        form_data: {
          pay_period: '2026-02',
          issue_type: 'Missing allowance',
          amount: 300,
          employee_id: 'E102915',
          details: 'On call for two weeks in February, allowance not included.',
        },
      },
    ],
  },
  {
    department: 'hr',
    name: 'Employment Verification Letter',
    category: 'Documents',
    description:
      'Request a signed letter confirming your employment, for example for a mortgage, tenancy or visa. ' +
      'Salary is only included if you ask for it.',
    icon: 'description',
    sla_hours: 48,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Employment verification letter',
      properties: {
        letter_type: {
          type: 'string',
          title: 'Letter type',
          enum: ['Employment confirmation', 'Salary confirmation', 'Visa support', 'Mortgage reference'],
        },
        addressed_to: { type: 'string', title: 'Addressed to' },
        include_salary: { type: 'boolean', title: 'Include salary' },
        delivery: { type: 'string', title: 'Delivery', enum: ['Email PDF', 'Signed hard copy'] },
      },
      required: ['letter_type', 'delivery'],
    },
    requests: [
      {
        title: 'Letter confirming employment for a mortgage application',
        form_data: {
          letter_type: 'Mortgage reference',
          addressed_to: 'Underwriting team, the lender',
          include_salary: true,
          delivery: 'Email PDF',
        },
      },
      {
        title: 'Salary confirmation for a rental agreement',
        form_data: {
          letter_type: 'Salary confirmation',
          addressed_to: 'To whom it may concern',
          include_salary: true,
          delivery: 'Email PDF',
        },
      },
      {
        title: 'Visa support letter for a conference in the US',
        form_data: {
          letter_type: 'Visa support',
          addressed_to: 'Consular section, US Embassy',
          include_salary: false,
          delivery: 'Signed hard copy',
        },
      },
      {
        title: 'Proof of employment to open a bank account',
        form_data: { letter_type: 'Employment confirmation', delivery: 'Email PDF' },
      },
    ],
  },
  // ---------------------------------------------------------------- Facilities
  {
    department: 'facilities',
    name: 'Desk Move',
    category: 'Workspace',
    description:
      'Move one or more people to a different desk or floor. Facilities moves equipment and IT ' +
      're-patches docking stations; give at least five working days notice.',
    icon: 'desk',
    sla_hours: 72,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Desk move',
      properties: {
        current_location: { type: 'string', title: 'Current desk or area' },
        new_location: { type: 'string', title: 'New desk or area' },
        move_date: { type: 'string', title: 'Move date', format: 'date' },
        number_of_people: { type: 'integer', title: 'Number of people moving', minimum: 1 },
        items_to_move: {
          type: 'array',
          title: 'Items to move',
          items: {
            type: 'string',
            enum: ['Monitor', 'Docking station', 'Pedestal', 'Chair', 'Personal boxes', 'Footrest'],
          },
          uniqueItems: true,
        },
      },
      required: ['current_location', 'new_location', 'move_date', 'number_of_people'],
    },
    requests: [
      {
        title: 'Move the payments team to the 3rd floor',
        form_data: {
          current_location: '1st floor, bank C',
          new_location: '3rd floor, bank F',
          move_date: '2026-03-13',
          number_of_people: 9,
          items_to_move: ['Monitor', 'Docking station', 'Pedestal', 'Personal boxes'],
        },
      },
      {
        title: 'Move my desk closer to my team',
        form_data: {
          current_location: 'Desk 2.41',
          new_location: 'Desk 2.08',
          move_date: '2026-02-27',
          number_of_people: 1,
          items_to_move: ['Pedestal', 'Personal boxes'],
        },
      },
      {
        title: 'Set up two desks for new starters',
        form_data: {
          current_location: 'Storage room 4.02',
          new_location: 'Desks 4.17 and 4.18',
          move_date: '2026-03-06',
          number_of_people: 2,
          items_to_move: ['Monitor', 'Docking station', 'Chair'],
        },
      },
      {
        title: 'Desk move after workstation assessment',
        form_data: {
          current_location: 'Desk 5.30',
          new_location: 'Sit-stand desk 5.02',
          move_date: '2026-03-02',
          number_of_people: 1,
          items_to_move: ['Chair', 'Footrest', 'Monitor'],
        },
      },
      {
        title: 'Team move ahead of the 2nd floor refurbishment',
        form_data: {
          current_location: '2nd floor, east wing',
          new_location: '6th floor, project space',
          move_date: '2026-04-10',
          number_of_people: 14,
        },
      },
    ],
  },
  {
    department: 'facilities',
    name: 'Meeting Room AV Fault',
    category: 'Meeting Rooms',
    description:
      'Report a fault with a meeting room screen, camera, microphone or booking panel. ' +
      'If a meeting is in progress, an engineer is sent to the room.',
    icon: 'videocam_off',
    sla_hours: 4,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Meeting room AV fault',
      properties: {
        room: { type: 'string', title: 'Room' },
        fault_type: {
          type: 'string',
          title: 'Fault',
          enum: [
            'Screen or projector',
            'Camera',
            'Microphone or speakers',
            'Room booking panel',
            'Video conferencing unit',
            'Cables or adapters',
          ],
        },
        meeting_in_progress: { type: 'boolean', title: 'A meeting is in progress now' },
        description: { type: 'string', title: 'What happened', maxLength: 1000 },
      },
      required: ['room', 'fault_type', 'meeting_in_progress'],
    },
    requests: [
      {
        title: 'Screen in the Boardroom will not detect my laptop',
        form_data: {
          room: 'Boardroom (7th floor)',
          fault_type: 'Screen or projector',
          meeting_in_progress: true,
          description: 'Screen shows "No signal" on both HDMI and USB-C. Board meeting starts at 10:00.',
        },
      },
      {
        title: 'No sound from the ceiling speakers in room 2.07',
        form_data: {
          room: '2.07',
          fault_type: 'Microphone or speakers',
          meeting_in_progress: false,
          description: 'Remote participants can hear us but we cannot hear them.',
        },
      },
      {
        title: 'Camera frozen in the Atlas room',
        form_data: {
          room: 'Atlas (3rd floor)',
          fault_type: 'Camera',
          meeting_in_progress: true,
        },
      },
      {
        title: 'Room booking panel outside 4.12 is blank',
        form_data: {
          room: '4.12',
          fault_type: 'Room booking panel',
          meeting_in_progress: false,
          description: 'Panel has been dark since Monday; people are walking into booked meetings.',
        },
      },
      {
        title: 'HDMI cable missing from Training Room B',
        form_data: {
          room: 'Training Room B',
          fault_type: 'Cables or adapters',
          meeting_in_progress: false,
        },
      },
    ],
  },
  {
    department: 'facilities',
    name: 'Access Badge Request',
    category: 'Building Access',
    description:
      'Request a new or replacement building badge, or access to restricted areas. ' +
      'Lost badges are deactivated as soon as the request is logged.',
    icon: 'badge',
    sla_hours: 24,
    requires_approval: true,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Access badge request',
      properties: {
        request_type: {
          type: 'string',
          title: 'Request type',
          enum: [
            'New badge',
            'Replacement (lost)',
            'Replacement (damaged)',
            'Additional area access',
            'Temporary badge',
          ],
        },
        badge_holder: { type: 'string', title: 'Badge holder full name' },
        areas: {
          type: 'array',
          title: 'Areas',
          items: {
            type: 'string',
            enum: ['General office', 'Data centre', 'Server room', 'Post room', 'Car park', 'Archive store'],
          },
          minItems: 1,
          uniqueItems: true,
        },
        valid_until: { type: 'string', title: 'Valid until (temporary access only)', format: 'date' },
      },
      required: ['request_type', 'badge_holder', 'areas'],
    },
    requests: [
      {
        title: 'Lost my badge on the train',
        form_data: {
          request_type: 'Replacement (lost)',
          badge_holder: 'Marcus Reid',
          areas: ['General office', 'Car park'],
        },
      },
      {
        title: 'Server room access for new infrastructure engineer',
        form_data: {
          request_type: 'Additional area access',
          badge_holder: 'Nadia Haddad',
          areas: ['General office', 'Server room', 'Data centre'],
        },
      },
      {
        title: 'Temporary badge for auditor visiting for two weeks',
        form_data: {
          request_type: 'Temporary badge',
          badge_holder: 'Stephen Cole',
          areas: ['General office'],
          valid_until: '2026-03-13',
        },
      },
      {
        title: 'Badge photo worn off and card no longer reads',
        form_data: {
          request_type: 'Replacement (damaged)',
          badge_holder: 'Leanne Foster',
          areas: ['General office', 'Post room'],
        },
      },
      {
        title: 'Archive store access for the records retention project',
        form_data: {
          request_type: 'Additional area access',
          badge_holder: 'Ewan Sinclair',
          areas: ['Archive store'],
          valid_until: '2026-06-30',
        },
      },
    ],
  },
  {
    department: 'facilities',
    name: 'Parking Permit',
    category: 'Building Access',
    description:
      'Retired: permanent parking permits have been withdrawn. ' +
      'Car park and EV charging spaces are now booked day by day in the desk booking app.',
    icon: 'local_parking',
    sla_hours: 48,
    requires_approval: false,
    is_active: false,
    form_schema: {
      type: 'object',
      title: 'Parking permit',
      properties: {
        vehicle_registration: { type: 'string', title: 'Vehicle registration' },
        vehicle_type: {
          type: 'string',
          title: 'Vehicle type',
          enum: ['Car', 'Electric vehicle', 'Motorcycle'],
        },
        permit_type: { type: 'string', title: 'Permit type', enum: ['Annual', 'Monthly', 'Blue badge'] },
      },
      required: ['vehicle_registration', 'vehicle_type', 'permit_type'],
    },
    requests: [
      {
        title: 'Annual parking permit',
        form_data: { vehicle_registration: 'AB21 XKT', vehicle_type: 'Car', permit_type: 'Annual' },
      },
      {
        title: 'Permit for an EV charging bay',
        form_data: {
          vehicle_registration: 'LV70 PZR',
          vehicle_type: 'Electric vehicle',
          permit_type: 'Monthly',
        },
      },
      {
        title: 'Blue badge parking space near the entrance',
        form_data: { vehicle_registration: 'YD19 HNM', vehicle_type: 'Car', permit_type: 'Blue badge' },
      },
      {
        title: 'Motorcycle bay permit',
        form_data: { vehicle_registration: 'KX68 BFO', vehicle_type: 'Motorcycle', permit_type: 'Annual' },
      },
    ],
  },
  // ---------------------------------------------------------------- Finance
  {
    department: 'finance',
    name: 'Expense Reimbursement Query',
    category: 'Expenses',
    description:
      'Ask about an expense claim that is unpaid, rejected or reimbursed at the wrong amount. ' +
      'Approved claims are paid in the next weekly payment run.',
    icon: 'receipt_long',
    sla_hours: 48,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Expense reimbursement query',
      properties: {
        claim_reference: { type: 'string', title: 'Claim reference', pattern: '^EXP-[0-9]{6}$' },
        query_type: {
          type: 'string',
          title: 'Query',
          enum: [
            'Claim not paid',
            'Claim rejected',
            'Partial payment',
            'Foreign currency',
            'Mileage rate',
            'Missing receipt',
          ],
        },
        amount: { type: 'number', title: 'Amount claimed', minimum: 0 },
        currency: { type: 'string', title: 'Currency', enum: ['GBP', 'EUR', 'USD'] },
        submitted_on: { type: 'string', title: 'Submitted on', format: 'date' },
        details: { type: 'string', title: 'Details', minLength: 10 },
      },
      required: ['query_type', 'details'],
    },
    requests: [
      {
        title: 'Expense claim approved three weeks ago but not paid',
        form_data: {
          claim_reference: 'EXP-204817',
          query_type: 'Claim not paid',
          amount: 342.18,
          currency: 'GBP',
          submitted_on: '2026-01-26',
          details: 'Approved by my manager on 28 January; nothing received in the last two payment runs.',
        },
      },
      {
        title: 'Why was my client dinner claim rejected?',
        form_data: {
          claim_reference: 'EXP-205102',
          query_type: 'Claim rejected',
          amount: 268,
          currency: 'GBP',
          details: 'Rejection note says "over limit" but attendees were listed on the claim.',
        },
      },
      {
        title: 'Hotel in euros reimbursed at the wrong exchange rate',
        form_data: {
          claim_reference: 'EXP-204990',
          query_type: 'Foreign currency',
          amount: 612.4,
          currency: 'EUR',
          submitted_on: '2026-02-02',
          details: 'Paid at 1.22 but my card statement shows 1.16 on the transaction date.',
        },
      },
      {
        title: 'Lost taxi receipt - can I still claim?',
        form_data: {
          query_type: 'Missing receipt',
          amount: 38.5,
          currency: 'GBP',
          details: 'Taxi from the airport after a delayed flight; the driver could not issue a receipt.',
        },
      },
      {
        title: 'Mileage paid at the old rate',
        form_data: {
          claim_reference: 'EXP-205233',
          query_type: 'Mileage rate',
          amount: 81.9,
          currency: 'GBP',
          details: 'Claim for 182 miles paid at 40p per mile instead of 45p.',
        },
      },
    ],
  },
  {
    department: 'finance',
    name: 'Corporate Card Request',
    category: 'Cards',
    description:
      'Apply for a corporate credit card, change a limit, or replace or cancel a card. ' +
      'Cards are issued to permanent staff with regular business spend and need budget holder approval.',
    icon: 'credit_card',
    sla_hours: 72,
    requires_approval: true,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Corporate card request',
      properties: {
        request_type: {
          type: 'string',
          title: 'Request type',
          enum: ['New card', 'Limit change', 'Replacement card', 'Cancel card'],
        },
        cardholder: { type: 'string', title: 'Cardholder full name' },
        monthly_limit: { type: 'integer', title: 'Monthly limit (GBP)', minimum: 500, maximum: 25000 },
        cost_centre: { type: 'string', title: 'Cost centre', pattern: '^CC-[0-9]{4}$' },
        purpose: { type: 'string', title: 'Purpose', minLength: 10 },
      },
      required: ['request_type', 'cardholder', 'cost_centre', 'purpose'],
    },
    requests: [
      {
        title: 'Corporate card for frequent client travel',
        form_data: {
          request_type: 'New card',
          cardholder: 'Jasmine Clarke',
          monthly_limit: 3000,
          cost_centre: 'CC-6200',
          purpose: 'Hotels, rail and client entertainment for a national account role.',
        },
      },
      {
        title: 'Temporary limit increase for conference bookings',
        form_data: {
          request_type: 'Limit change',
          cardholder: 'Liam Gallagher-Shaw',
          monthly_limit: 12000,
          cost_centre: 'CC-7010',
          purpose: 'Booking the exhibition stand and team hotel for the May trade show.',
        },
      },
      {
        title: 'Card chip failed, need a replacement',
        form_data: {
          request_type: 'Replacement card',
          cardholder: 'Rebecca Thornton',
          cost_centre: 'CC-2310',
          purpose: 'Chip damaged; card declined at two hotels last week.',
        },
      },
      {
        title: 'Cancel card for a leaver in my team',
        form_data: {
          request_type: 'Cancel card',
          cardholder: 'Paul Dennison',
          cost_centre: 'CC-4120',
          purpose: 'Cardholder leaves the company on 27 February.',
        },
      },
      {
        title: 'Card for the events team to pay venue deposits',
        form_data: {
          request_type: 'New card',
          cardholder: 'Sophie Lambert',
          monthly_limit: 8000,
          cost_centre: 'CC-7010',
          purpose: 'Venue deposits that suppliers will only accept by card.',
        },
      },
    ],
  },
  {
    department: 'finance',
    name: 'Invoice Payment Query',
    category: 'Accounts Payable',
    description:
      'Ask Accounts Payable about the status of a supplier invoice, a duplicate or incorrect invoice, ' +
      'or a change to supplier bank details.',
    icon: 'request_quote',
    sla_hours: 48,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Invoice payment query',
      properties: {
        supplier_name: { type: 'string', title: 'Supplier name' },
        invoice_number: { type: 'string', title: 'Invoice number' },
        invoice_amount: { type: 'number', title: 'Invoice amount (GBP)', minimum: 0 },
        invoice_date: { type: 'string', title: 'Invoice date', format: 'date' },
        po_number: { type: 'string', title: 'Purchase order number', pattern: '^PO-[0-9]{6}$' },
        query: {
          type: 'string',
          title: 'Query',
          enum: [
            'Payment status',
            'Overdue payment',
            'Duplicate invoice',
            'Incorrect amount',
            'Supplier bank details change',
          ],
        },
        details: { type: 'string', title: 'Details' },
      },
      required: ['supplier_name', 'invoice_number', 'query'],
    },
    requests: [
      {
        title: 'Supplier chasing payment for an invoice 60 days overdue',
        form_data: {
          supplier_name: 'Northgate Office Interiors Ltd',
          invoice_number: 'NOI-11842',
          invoice_amount: 4860,
          invoice_date: '2025-12-12',
          po_number: 'PO-310244',
          query: 'Overdue payment',
          details: 'Goods were received in December; supplier has put our account on hold.',
        },
      },
      {
        title: 'Has the catering invoice for the January town hall been paid?',
        form_data: {
          supplier_name: 'Greenleaf Catering',
          invoice_number: 'INV-20931',
          invoice_amount: 1275,
          invoice_date: '2026-01-30',
          query: 'Payment status',
        },
      },
      {
        title: 'Duplicate invoice received from the print supplier',
        form_data: {
          supplier_name: 'Inkwell Print Services',
          invoice_number: 'IPS-7781',
          invoice_amount: 932.4,
          po_number: 'PO-311098',
          query: 'Duplicate invoice',
          details: 'Same job invoiced as IPS-7764 two weeks earlier.',
        },
      },
      {
        title: 'Supplier says they were paid short',
        form_data: {
          supplier_name: 'Brightline Consulting',
          invoice_number: 'BC-2026-014',
          invoice_amount: 15600,
          query: 'Incorrect amount',
          details: 'Remittance shows 13,000; supplier believes VAT was not paid.',
        },
      },
      {
        title: 'Supplier has emailed new bank details',
        form_data: {
          supplier_name: 'Crestview Facilities Management',
          invoice_number: 'CFM-55310',
          query: 'Supplier bank details change',
          details: 'Email came from a different domain to usual. Please verify by phone before updating.',
        },
      },
    ],
  },
  // ---------------------------------------------------------------- Legal
  {
    department: 'legal',
    name: 'Contract Review',
    category: 'Contracts',
    description:
      'Send a customer, supplier or partner contract to Legal for review and negotiation. ' +
      'Contracts on company templates with no changes are usually turned round within two working days.',
    icon: 'contract',
    sla_hours: 120,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Contract review',
      properties: {
        contract_type: {
          type: 'string',
          title: 'Contract type',
          enum: [
            'Customer agreement',
            'Supplier agreement',
            'Software licence',
            'Partnership',
            'Amendment',
            'Other',
          ],
        },
        counterparty: { type: 'string', title: 'Counterparty' },
        contract_value: { type: 'number', title: 'Total contract value', minimum: 0 },
        currency: { type: 'string', title: 'Currency', enum: ['GBP', 'EUR', 'USD'] },
        signature_deadline: { type: 'string', title: 'Signature deadline', format: 'date' },
        uses_company_template: { type: 'boolean', title: 'Based on a company template' },
        summary: { type: 'string', title: 'Summary and key concerns', minLength: 20 },
      },
      required: ['contract_type', 'counterparty', 'summary'],
    },
    requests: [
      {
        title: 'Review SaaS subscription terms for the new HR system',
        form_data: {
          contract_type: 'Software licence',
          counterparty: 'PeopleCloud Software Inc.',
          contract_value: 84000,
          currency: 'USD',
          signature_deadline: '2026-03-20',
          uses_company_template: false,
          summary: 'Three-year subscription; vendor paper. Concerned about data location and auto-renewal.',
        },
      },
      {
        title: 'Customer redlines on our master services agreement',
        form_data: {
          contract_type: 'Customer agreement',
          counterparty: 'Harbour Logistics plc',
          contract_value: 420000,
          currency: 'GBP',
          uses_company_template: true,
          summary: 'Customer wants unlimited liability for data breaches and 90-day payment terms.',
        },
      },
      {
        title: 'Amendment to extend the cleaning contract by 12 months',
        form_data: {
          contract_type: 'Amendment',
          counterparty: 'Crestview Facilities Management',
          contract_value: 96000,
          currency: 'GBP',
          signature_deadline: '2026-03-31',
          uses_company_template: true,
          summary: 'Extension on existing terms with a 4% price increase from 1 April.',
        },
      },
      {
        title: 'Partnership agreement with a university research group',
        form_data: {
          contract_type: 'Partnership',
          counterparty: 'University research office',
          uses_company_template: false,
          summary: 'Joint research project; need to agree IP ownership and publication rights.',
        },
      },
      {
        title: 'Licence terms for a stock photography subscription',
        form_data: {
          contract_type: 'Software licence',
          counterparty: 'Stockframe Images',
          contract_value: 2400,
          currency: 'EUR',
          uses_company_template: false,
          summary: 'Check whether images can be used in paid advertising and printed brochures.',
        },
      },
    ],
  },
  {
    department: 'legal',
    name: 'NDA Request',
    category: 'Contracts',
    description:
      'Request a non-disclosure agreement before sharing confidential information with a third party. ' +
      'Standard mutual NDAs are issued for e-signature the same working day.',
    icon: 'handshake',
    sla_hours: 24,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'NDA request',
      properties: {
        nda_type: {
          type: 'string',
          title: 'NDA type',
          enum: ['Mutual', 'One-way (we disclose)', 'One-way (they disclose)'],
        },
        counterparty: { type: 'string', title: 'Counterparty legal name' },
        counterparty_email: { type: 'string', title: 'Counterparty signatory email', format: 'email' },
        purpose: { type: 'string', title: 'Purpose of the discussions', minLength: 10 },
        term_years: { type: 'integer', title: 'Confidentiality term (years)', minimum: 1, maximum: 5 },
      },
      required: ['nda_type', 'counterparty', 'purpose'],
    },
    requests: [
      {
        title: 'Mutual NDA before a product demo with a prospective customer',
        form_data: {
          nda_type: 'Mutual',
          counterparty: 'Harbour Logistics plc',
          counterparty_email: 'legal@harbour-logistics.example',
          purpose: 'Demo of the product roadmap and discussion of their warehouse processes.',
          term_years: 3,
        },
      },
      {
        title: 'NDA for the recruitment agency handling a senior hire',
        form_data: {
          nda_type: 'One-way (we disclose)',
          counterparty: 'Talentbridge Search Ltd',
          purpose: 'Confidential search for a replacement Chief Financial Officer.',
          term_years: 2,
        },
      },
      {
        title: 'NDA with a consultancy for the pricing review',
        form_data: {
          nda_type: 'One-way (we disclose)',
          counterparty: 'Brightline Consulting',
          counterparty_email: 'contracts@brightline.example',
          purpose: 'Sharing margin and pricing data for a pricing strategy review.',
          term_years: 5,
        },
      },
      {
        title: 'Supplier wants us to sign their NDA before a tender briefing',
        form_data: {
          nda_type: 'One-way (they disclose)',
          counterparty: 'Vectra Networks GmbH',
          purpose: 'Supplier briefing on unreleased network hardware ahead of the tender.',
        },
      },
      {
        title: 'NDA for early-stage acquisition discussions',
        form_data: {
          nda_type: 'Mutual',
          counterparty: 'Project Lighthouse target company',
          purpose: 'Exploratory discussions about a potential acquisition; strictly confidential.',
          term_years: 5,
        },
      },
    ],
  },
  // ---------------------------------------------------------------- Procurement
  {
    department: 'procurement',
    name: 'Supplier Onboarding',
    category: 'Suppliers',
    description:
      'Add a new supplier to the approved supplier list so that purchase orders can be raised and invoices ' +
      'paid. Includes due diligence, bank detail verification and, where needed, a security assessment.',
    icon: 'storefront',
    sla_hours: 120,
    requires_approval: true,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Supplier onboarding',
      properties: {
        supplier_name: { type: 'string', title: 'Supplier legal name' },
        company_number: { type: 'string', title: 'Company registration number' },
        supplier_category: {
          type: 'string',
          title: 'Category',
          enum: [
            'IT hardware',
            'Software',
            'Professional services',
            'Facilities',
            'Marketing',
            'Travel',
            'Other',
          ],
        },
        estimated_annual_spend: { type: 'number', title: 'Estimated annual spend (GBP)', minimum: 0 },
        contact_email: { type: 'string', title: 'Supplier contact email', format: 'email' },
        handles_personal_data: { type: 'boolean', title: 'Supplier will process personal data' },
        sole_source: { type: 'boolean', title: 'Only one supplier can provide this' },
      },
      required: [
        'supplier_name',
        'supplier_category',
        'estimated_annual_spend',
        'contact_email',
        'handles_personal_data',
      ],
    },
    requests: [
      {
        title: 'Add a translation agency for product documentation',
        form_data: {
          supplier_name: 'Polyglot Language Services Ltd',
          company_number: '08841275',
          supplier_category: 'Professional services',
          estimated_annual_spend: 28000,
          contact_email: 'accounts@polyglot.example',
          handles_personal_data: false,
          sole_source: false,
        },
      },
      {
        title: 'Onboard a local catering supplier for office events',
        form_data: {
          supplier_name: 'Greenleaf Catering',
          supplier_category: 'Facilities',
          estimated_annual_spend: 9500,
          contact_email: 'orders@greenleaf.example',
          handles_personal_data: false,
        },
      },
      {
        title: 'New cloud backup vendor',
        form_data: {
          supplier_name: 'Vaultline Backup Services Ltd',
          company_number: '11203984',
          supplier_category: 'Software',
          estimated_annual_spend: 64000,
          contact_email: 'sales@vaultline.example',
          handles_personal_data: true,
          sole_source: false,
        },
      },
      {
        title: 'Set up a freelance photographer as a supplier',
        form_data: {
          supplier_name: 'Tom Ridley Photography',
          supplier_category: 'Marketing',
          estimated_annual_spend: 4200,
          contact_email: 'tom@ridleyphoto.example',
          handles_personal_data: true,
          sole_source: true,
        },
      },
      {
        title: 'Onboard a recruitment agency for engineering roles',
        form_data: {
          supplier_name: 'Talentbridge Search Ltd',
          company_number: '09567310',
          supplier_category: 'Professional services',
          estimated_annual_spend: 120000,
          contact_email: 'finance@talentbridge.example',
          handles_personal_data: true,
        },
      },
    ],
  },
  {
    department: 'procurement',
    name: 'Purchase Request',
    category: 'Purchasing',
    description:
      'Request goods or services that are not available from the catalogue. Procurement sources quotes ' +
      'where required and raises a purchase order once the budget holder approves.',
    icon: 'shopping_cart',
    sla_hours: 72,
    requires_approval: true,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Purchase request',
      properties: {
        item_description: { type: 'string', title: 'What do you need?', minLength: 5 },
        category: {
          type: 'string',
          title: 'Category',
          enum: ['Furniture', 'IT equipment', 'Software', 'Consumables', 'Training and events', 'Services'],
        },
        quantity: { type: 'integer', title: 'Quantity', minimum: 1 },
        unit_price: { type: 'number', title: 'Estimated unit price', minimum: 0 },
        currency: { type: 'string', title: 'Currency', enum: ['GBP', 'EUR', 'USD'] },
        preferred_supplier: { type: 'string', title: 'Preferred supplier' },
        needed_by: { type: 'string', title: 'Needed by', format: 'date' },
        cost_centre: { type: 'string', title: 'Cost centre', pattern: '^CC-[0-9]{4}$' },
      },
      required: ['item_description', 'category', 'quantity', 'unit_price', 'currency', 'cost_centre'],
    },
    requests: [
      {
        title: '10 ergonomic chairs for the new team area',
        form_data: {
          item_description: 'Ergonomic task chair with adjustable lumbar support and arms',
          category: 'Furniture',
          quantity: 10,
          unit_price: 345,
          currency: 'GBP',
          preferred_supplier: 'Northgate Office Interiors Ltd',
          needed_by: '2026-03-27',
          cost_centre: 'CC-1005',
        },
      },
      {
        title: 'Annual licence for the employee survey tool',
        form_data: {
          item_description: 'Employee engagement survey platform, 1,200 respondents',
          category: 'Software',
          quantity: 1,
          unit_price: 14500,
          currency: 'USD',
          cost_centre: 'CC-1200',
        },
      },
      {
        title: 'Replacement toner for the third-floor printers',
        form_data: {
          item_description: 'High-yield black toner cartridges for the third-floor multifunction printers',
          category: 'Consumables',
          quantity: 6,
          unit_price: 89.99,
          currency: 'GBP',
          cost_centre: 'CC-1005',
        },
      },
      {
        title: 'Conference tickets for two engineers',
        form_data: {
          item_description: 'Two full-access passes for a European cloud engineering conference',
          category: 'Training and events',
          quantity: 2,
          unit_price: 1150,
          currency: 'EUR',
          needed_by: '2026-04-15',
          cost_centre: 'CC-5502',
        },
      },
      {
        title: 'Sit-stand desks as a reasonable adjustment',
        form_data: {
          item_description: 'Electric sit-stand desk, 1600 x 800 mm, recommended by occupational health',
          category: 'Furniture',
          quantity: 2,
          unit_price: 520,
          currency: 'GBP',
          needed_by: '2026-03-13',
          cost_centre: 'CC-1200',
        },
      },
    ],
  },
  // ---------------------------------------------------------------- Information Security
  {
    department: 'infosec',
    name: 'Phishing Report',
    category: 'Threats',
    description:
      'Report a suspicious email, text message or phone call. ' +
      'If you clicked a link or entered your password, say so: the security team will act immediately.',
    icon: 'phishing',
    sla_hours: 4,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Phishing report',
      properties: {
        sender: { type: 'string', title: 'Sender address or phone number' },
        subject: { type: 'string', title: 'Subject or first line' },
        received_at: { type: 'string', title: 'Received at', format: 'date-time' },
        clicked_link: { type: 'boolean', title: 'I clicked a link' },
        opened_attachment: { type: 'boolean', title: 'I opened an attachment' },
        entered_credentials: { type: 'boolean', title: 'I entered my password or MFA code' },
        notes: { type: 'string', title: 'Anything else we should know' },
      },
      required: ['sender', 'subject', 'clicked_link', 'entered_credentials'],
    },
    requests: [
      {
        title: 'Email claiming to be from the CEO asking for gift cards',
        form_data: {
          sender: 'ceo.office@outlook-mail.example',
          subject: 'Urgent favour - are you at your desk?',
          received_at: '2026-02-16T08:42:00Z',
          clicked_link: false,
          opened_attachment: false,
          entered_credentials: false,
          notes: 'Asked me to buy six gift cards for a client and send the codes by reply.',
        },
      },
      {
        title: 'Fake Microsoft 365 password expiry email - I clicked the link',
        form_data: {
          sender: 'no-reply@m365-account-security.example',
          subject: 'Your password expires today',
          received_at: '2026-02-17T13:05:00Z',
          clicked_link: true,
          opened_attachment: false,
          entered_credentials: true,
          notes: 'Entered my password before noticing the address. I have changed it since.',
        },
      },
      {
        title: 'Invoice attachment from an unknown sender',
        form_data: {
          sender: 'accounts@invoicing-dept.example',
          subject: 'Overdue invoice #88213 - final notice',
          clicked_link: false,
          opened_attachment: true,
          entered_credentials: false,
          notes: 'Attachment was a ZIP file; nothing seemed to happen when I opened it.',
        },
      },
      {
        title: 'Text message pretending to be IT support',
        form_data: {
          sender: '+44 7700 900999',
          subject: 'IT Helpdesk: your account will be disabled, verify here',
          received_at: '2026-02-18T19:20:00Z',
          clicked_link: false,
          entered_credentials: false,
        },
      },
      {
        title: 'E-signature request I was not expecting',
        form_data: {
          sender: 'docs@esign-notification.example',
          subject: 'Please review and sign: Q1 bonus allocation',
          clicked_link: false,
          opened_attachment: false,
          entered_credentials: false,
          notes: 'Sent to the whole finance team at the same time.',
        },
      },
    ],
  },
  {
    department: 'infosec',
    name: 'Security Exception',
    category: 'Policy',
    description:
      'Request a time-limited exception to an information security policy where there is a business need. ' +
      'Exceptions are risk-assessed and must be accepted by a named risk owner.',
    icon: 'policy',
    sla_hours: 120,
    requires_approval: true,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Security exception',
      properties: {
        policy_area: {
          type: 'string',
          title: 'Policy area',
          enum: [
            'USB storage',
            'Local administrator rights',
            'Unapproved software',
            'Firewall rule',
            'Personal device use',
            'Legacy protocol or encryption',
          ],
        },
        system_affected: { type: 'string', title: 'System or device affected' },
        duration_days: { type: 'integer', title: 'Duration (days)', minimum: 1, maximum: 180 },
        business_justification: { type: 'string', title: 'Business justification', minLength: 20 },
        compensating_controls: { type: 'string', title: 'Compensating controls' },
        risk_owner_email: { type: 'string', title: 'Risk owner email', format: 'email' },
      },
      required: ['policy_area', 'duration_days', 'business_justification', 'risk_owner_email'],
    },
    requests: [
      {
        title: 'Local admin rights to install lab instrument drivers',
        form_data: {
          policy_area: 'Local administrator rights',
          system_affected: 'Lab workstation LAB-WS-07',
          duration_days: 30,
          business_justification: 'Instrument vendor drivers must be reinstalled after each firmware update.',
          compensating_controls: 'Separate admin account, workstation on the isolated lab VLAN.',
          risk_owner_email: 'dr.ellen.wright@example.com',
        },
      },
      {
        title: 'USB drive to transfer files to an air-gapped system',
        form_data: {
          policy_area: 'USB storage',
          system_affected: 'Test rig controller',
          duration_days: 90,
          business_justification: 'The test rig has no network connection by design; config files go by USB.',
          compensating_controls: 'Company-issued encrypted USB drive, scanned at a kiosk before each use.',
          risk_owner_email: 'mark.huxley@example.com',
        },
      },
      {
        title: 'Firewall exception for a supplier SFTP server',
        form_data: {
          policy_area: 'Firewall rule',
          system_affected: 'Payroll interface server',
          duration_days: 180,
          business_justification: 'Payroll bureau only supports SFTP from a fixed IP for monthly pay files.',
          compensating_controls: 'Source IP allow-list, key-based authentication, transfer logging.',
          risk_owner_email: 'graham.pike@example.com',
        },
      },
      {
        title: 'Use of a personal tablet to read board papers',
        form_data: {
          policy_area: 'Personal device use',
          duration_days: 60,
          business_justification:
            'Non-executive director without a company device needs to read board packs.',
          compensating_controls: 'Access only through the board portal app with MFA and no download.',
          risk_owner_email: 'company.secretary@example.com',
        },
      },
      {
        title: 'Temporary TLS 1.0 for the old time-and-attendance interface',
        form_data: {
          policy_area: 'Legacy protocol or encryption',
          system_affected: 'Time and attendance clocking terminals',
          duration_days: 120,
          business_justification: 'Terminals are being replaced in Q2; firmware cannot support TLS 1.2.',
          risk_owner_email: 'fiona.mcallister@example.com',
        },
      },
    ],
  },
  // ---------------------------------------------------------------- Communications
  {
    department: 'comms',
    name: 'Press Release Review',
    category: 'Media',
    description:
      'Submit a press release, media statement or quote for approval before it is shared externally. ' +
      'Anything containing financial information is also reviewed by Legal and Finance.',
    icon: 'newspaper',
    sla_hours: 72,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Press release review',
      properties: {
        headline: { type: 'string', title: 'Headline', maxLength: 150 },
        planned_release_date: { type: 'string', title: 'Planned release date', format: 'date' },
        embargoed: { type: 'boolean', title: 'Under embargo' },
        spokesperson: { type: 'string', title: 'Spokesperson quoted' },
        contains_financial_information: { type: 'boolean', title: 'Contains financial information' },
        distribution: {
          type: 'string',
          title: 'Distribution',
          enum: ['National press', 'Trade press', 'Local press', 'Social media only'],
        },
      },
      required: ['headline', 'planned_release_date', 'contains_financial_information'],
    },
    requests: [
      {
        title: 'Press release announcing a new customer partnership',
        form_data: {
          headline: 'The company and Harbour Logistics partner to digitise warehouse operations',
          planned_release_date: '2026-03-18',
          embargoed: true,
          spokesperson: 'Chief Executive Officer',
          contains_financial_information: false,
          distribution: 'Trade press',
        },
      },
      {
        title: 'Review my quote for a trade magazine article',
        form_data: {
          headline: 'Quote on supply chain resilience for an industry magazine feature',
          planned_release_date: '2026-02-27',
          spokesperson: 'Head of Operations',
          contains_financial_information: false,
          distribution: 'Trade press',
        },
      },
      {
        title: 'Announcement of the new regional office opening',
        form_data: {
          headline: 'The company opens new regional office, creating 80 jobs',
          planned_release_date: '2026-04-21',
          embargoed: false,
          spokesperson: 'Chief People Officer',
          contains_financial_information: false,
          distribution: 'Local press',
        },
      },
      {
        title: 'Press release for the sustainability report launch',
        form_data: {
          headline: 'The company cuts operational emissions by 32% and publishes first net zero plan',
          planned_release_date: '2026-05-06',
          embargoed: true,
          contains_financial_information: true,
          distribution: 'National press',
        },
      },
      {
        title: 'Holding statement for a local newspaper enquiry',
        form_data: {
          headline: 'Statement on planned car park changes at head office',
          planned_release_date: '2026-02-19',
          contains_financial_information: false,
          distribution: 'Local press',
        },
      },
    ],
  },
  {
    department: 'comms',
    name: 'Intranet Post',
    category: 'Internal Communications',
    description:
      'Ask Internal Communications to publish a news item, event or policy update on the intranet. ' +
      'Posts go live on Tuesdays and Thursdays unless urgent.',
    icon: 'article',
    sla_hours: 24,
    requires_approval: false,
    is_active: true,
    form_schema: {
      type: 'object',
      title: 'Intranet post',
      properties: {
        post_title: { type: 'string', title: 'Post title', maxLength: 100 },
        audience: {
          type: 'string',
          title: 'Audience',
          enum: ['All staff', 'People managers', 'Specific department', 'Specific site'],
        },
        channel: {
          type: 'string',
          title: 'Channel',
          enum: ['News', 'Events', 'Team updates', 'Policy updates'],
        },
        publish_date: { type: 'string', title: 'Publish date', format: 'date' },
        include_image: { type: 'boolean', title: 'I will supply an image' },
        summary: { type: 'string', title: 'Summary of the post', maxLength: 500 },
      },
      required: ['post_title', 'audience', 'channel', 'publish_date'],
    },
    requests: [
      {
        title: 'Publish a reminder about benefits open enrolment',
        form_data: {
          post_title: 'Benefits window closes 31 March: review your choices now',
          audience: 'All staff',
          channel: 'News',
          publish_date: '2026-03-03',
          include_image: false,
          summary: 'Reminder to review dental, cycle-to-work and pension options before the window closes.',
        },
      },
      {
        title: 'Intranet news: new canteen opening hours',
        form_data: {
          post_title: 'Staff restaurant now open for breakfast from 7:30',
          audience: 'Specific site',
          channel: 'News',
          publish_date: '2026-02-24',
          include_image: true,
        },
      },
      {
        title: 'Share the Q4 town hall recording',
        form_data: {
          post_title: 'Watch again: Q4 town hall with the leadership team',
          audience: 'All staff',
          channel: 'Events',
          publish_date: '2026-02-19',
          summary: 'Recording, slides and answers to the questions we did not have time for.',
        },
      },
      {
        title: 'Announce the charity fun run',
        form_data: {
          post_title: 'Sign up for the 5k charity fun run on 16 May',
          audience: 'All staff',
          channel: 'Events',
          publish_date: '2026-03-10',
          include_image: true,
        },
      },
      {
        title: 'Policy update: new travel policy effective 1 April',
        form_data: {
          post_title: 'Updated travel and expenses policy from 1 April',
          audience: 'All staff',
          channel: 'Policy updates',
          publish_date: '2026-03-17',
          summary: 'Rail first for journeys under four hours, new hotel caps and the mileage rate change.',
        },
      },
    ],
  },
];

export const ARTICLES: readonly ArticleSeed[] = [
  // ---------------------------------------------------------------- IT
  {
    department: 'it',
    category_id: 1,
    title: 'How to connect to the VPN',
    content: `## Before you start

You need a company-managed laptop, an approved **VPN Access** request and the authenticator app set up
on your phone. The VPN client is installed on every company laptop; look for **Secure Connect** in the
Start menu (Windows) or the menu bar (macOS).

## Connecting

1. Connect to a trusted network first: home broadband, a mobile hotspot or hotel Wi-Fi.
2. If the network has a sign-in page (hotels, trains), open a browser and accept the terms before you
   start the VPN.
3. Open **Secure Connect** and choose the gateway nearest to you. **Auto** is right for most people.
4. Sign in with your usual company email address and password.
5. Approve the push notification in the authenticator app. The icon turns green when you are connected.

## Good practice

- Disconnect when you finish work; sessions end automatically after 12 hours.
- Teams, Outlook and SharePoint work without the VPN. You only need it for file shares, the finance
  reporting server and other internal systems.
- Never use the VPN on a personal device, and never share your connection through a hotspot.

If the client shows **Authentication failed** three times, your account may be locked. Use the
self-service password reset page, or raise a **Password Reset** request.`,
    author: 'Daniel Okafor',
    status: 'Published',
  },
  {
    department: 'it',
    category_id: 2,
    title: 'Laptop will not connect to office Wi-Fi',
    content: `Most office Wi-Fi problems are fixed in a few minutes with the steps below. Work through them in
order and note which ones you tried if you need to raise a ticket.

## Check the basics

1. Make sure you are connecting to **Corp-Secure**, not **Corp-Guest**. The guest network cannot reach
   internal systems and logs you out every eight hours.
2. Turn Wi-Fi off and on again, or toggle flight mode for ten seconds.
3. Check the date and time on your laptop. If the clock is more than five minutes out, the network
   certificate check fails and you will see **Unable to connect to this network**.

## Forget and rejoin the network

1. Open Wi-Fi settings, select **Corp-Secure** and choose **Forget**.
2. Restart the laptop while plugged in to power.
3. Select **Corp-Secure** again. Do not type a password: the laptop signs in automatically with its
   device certificate.

## Still not working?

- If you have been away from the office for more than 90 days, the device certificate may have
  expired. Connect using a docking station network cable or the VPN from home for 30 minutes so the
  certificate can renew.
- If colleagues near you are also affected, it is probably an access point fault. Report it on the
  service desk with your floor and nearest desk number.

Raise an IT ticket with the error message and a photo of the screen if none of this helps.`,
    author: 'Megan Holloway',
    status: 'Published',
  },
  {
    department: 'it',
    category_id: 1,
    title: 'Reset your password and set up multi-factor authentication',
    content: `You can reset your own password at any time, without calling the service desk, as long as you
have registered for multi-factor authentication (MFA).

## Self-service password reset

1. Go to the sign-in page and select **Forgotten my password**.
2. Enter your company email address and complete the check.
3. Approve the request in the authenticator app, or enter the code sent to your registered mobile.
4. Choose a new password. It must be at least 14 characters, and cannot be one of your last 10
   passwords. A short sentence you will remember works well.
5. On a Windows laptop, connect to the office network or VPN and lock and unlock the screen so that the
   new password is picked up.

## Setting up MFA on a new phone

1. Before you swap phones, sign in to **My Sign-ins** on your computer and select **Add sign-in
   method**.
2. Choose **Authenticator app** and scan the QR code with the new phone.
3. Approve the test notification, then delete the old phone from the list.

## If you have lost your phone

Raise a **Password Reset** request and tick **My authenticator app or phone is lost or replaced**. The
service desk will call you on a number held in your HR record to confirm your identity before removing
the old device. We will never ask for your password.`,
    author: 'Daniel Okafor',
    status: 'Published',
  },
  {
    department: 'it',
    category_id: 3,
    title: 'Acceptable use of IT equipment and systems',
    content: `This policy applies to everyone who uses the company's devices, networks, accounts or data,
including contractors and temporary staff.

## You must

- Use company devices mainly for work. Occasional personal use, such as checking the news at lunchtime,
  is fine if it does not interfere with your work or break any other rule in this policy.
- Lock your screen (Windows key + L, or Control + Command + Q) whenever you leave your device.
- Keep devices up to date by restarting when prompted. Updates are forced after seven days.
- Store work files in OneDrive, SharePoint or Teams, not on the laptop's local drive or on USB storage.
- Report lost or stolen devices to the service desk within 24 hours.

## You must not

- Install software that is not in the Company Portal without an approved software access request.
- Share your password or MFA codes with anyone, including the service desk.
- Use personal email or personal cloud storage to send or store company information.
- Access, store or send material that is illegal, discriminatory, sexually explicit or harassing.
- Attempt to bypass security controls such as web filtering or device encryption.

## Monitoring

The company monitors use of its systems to protect its information and to meet legal obligations.
Monitoring is proportionate and carried out in line with the employee privacy notice.

Breaches of this policy may lead to disciplinary action. Questions should go to the IT service desk.`,
    author: 'Victoria Ashby',
    status: 'Published',
  },
  {
    department: 'it',
    category_id: 5,
    title: 'Your first day: IT set-up checklist',
    content: `Welcome to the company. Your manager will give you your laptop on your first morning. Set aside
about 45 minutes to work through this checklist.

## Sign in

1. Connect the laptop to power and to the office Wi-Fi network **Corp-Secure**.
2. Sign in with the username and temporary password in your welcome email.
3. Choose a new password of at least 14 characters when prompted.

## Set up multi-factor authentication

1. Install **Microsoft Authenticator** on your phone from the app store.
2. Follow the on-screen prompts on the laptop and scan the QR code.
3. Approve the test notification.

## Check your apps

- **Outlook** and **Teams** open and show your name.
- **OneDrive** shows a green tick in the taskbar or menu bar. Save your work here.
- Open **Company Portal** to install optional software such as Visio or Zoom.

## Before the end of the day

- Complete the 20-minute **Information Security Essentials** course in the learning platform.
- Add a photo to your Teams profile so colleagues can recognise you.
- Check that you can print by tapping your badge on any printer (see Facilities for badge issues).

If anything does not work, message **IT Service Desk** in Teams or raise a ticket on the portal. New
starter tickets are prioritised during your first week.`,
    author: 'Megan Holloway',
    status: 'Published',
  },
  {
    department: 'it',
    category_id: 1,
    title: 'Moving your files from the S: drive to SharePoint',
    content: `The shared **S: drive** is being retired. Each team's folders are moving to a SharePoint site,
which you can reach from Teams, a browser or File Explorer.

## What happens when

- IT creates a SharePoint site for each department and copies the files across over a weekend.
- The S: drive folder becomes read-only on the Monday after the copy.
- The S: drive is switched off 30 days later.

## What you need to do

1. Open the team's SharePoint site from the link in the migration email.
2. Select **Sync** on the document library. The files appear in File Explorer under the company name.
3. Update any Excel links that point to **S:\\**. Use **Data > Edit Links > Change Source** and pick the
   file in the synced library.
4. Delete personal copies you made in Downloads or on the desktop.

## Things that work differently

- Several people can edit a Word, Excel or PowerPoint file at the same time. There is no more
  "file locked for editing".
- Version history keeps the last 500 versions. Right-click a file and select **Version history** to
  restore an older one.
- File names cannot contain the characters # % * : < > ? / or |.

This migration completed in all offices, and the S: drive has now been switched off.`,
    author: 'Imran Siddiqui',
    status: 'Archived',
  },
  {
    department: 'it',
    category_id: 1,
    title: 'Setting up voicemail on your desk phone',
    content: `Every desk phone has a personal voicemail box. Follow these steps the first time you use a new
phone or extension.

## First-time set-up

1. Press the **Messages** button (envelope icon) on the phone.
2. Enter the default PIN **1234** and press **#**.
3. When prompted, choose a new PIN of six digits. Avoid your extension number, your birthday or
   repeated digits such as 111111.
4. Record your name, then record a greeting. Keep it short, for example: "You have reached Sam in
   Payroll. Please leave a message, or call extension 4000 for the payroll team."
5. Press **#** to save and hang up.

## Checking messages remotely

- From outside the office, call the main switchboard number, press **\\*** during the welcome message,
  and enter your extension and PIN.
- Voicemails are also emailed to you as audio attachments.

## Changing your out-of-office greeting

Press **Messages**, enter your PIN, and choose **3** for greetings, then **2** for the extended absence
greeting. Remember to switch it off when you return.

Desk phones have now been replaced by Teams calling. Set your Teams voicemail greeting in
**Settings > Calls** instead.`,
    author: 'Imran Siddiqui',
    status: 'Archived',
  },
  // ---------------------------------------------------------------- HR
  {
    department: 'hr',
    category_id: 3,
    title: 'Parental leave policy: summary of entitlements',
    content: `This summary explains the company's family leave entitlements. The full policy on the HR
intranet
page takes precedence if there is any difference.

## Maternity and adoption leave

- Up to 52 weeks of leave, regardless of length of service.
- Employees with 26 weeks' service by the qualifying week receive **enhanced pay**: full pay for 16
  weeks, then half pay for 10 weeks, then statutory pay for the remaining weeks of the paid period.
- Tell HR at least 15 weeks before the expected week of childbirth, or within 7 days of being matched
  for adoption.

## Paternity and partner leave

- Two weeks on full pay, which can be taken as one block or as two separate weeks within 52 weeks of
  the birth or placement.
- Give at least 28 days' notice of the dates you want.

## Shared parental leave

Eligible parents can share up to 50 weeks of leave and 37 weeks of pay. The company matches its
enhanced maternity pay for the first 16 weeks taken by either parent. Submit the notice of entitlement
form at least 8 weeks before the leave starts.

## Keeping in touch

You may work up to 10 keeping-in-touch (KIT) days, or 20 shared parental leave in touch (SPLIT) days,
without ending your leave. KIT days are paid at your normal daily rate.

Raise a **Parental Leave Enquiry** for a personal calculation of your pay.`,
    author: 'Charlotte Pemberton',
    status: 'Published',
  },
  {
    department: 'hr',
    category_id: 4,
    title: 'Payslip questions answered',
    content: `Payslips are available in the payroll portal from the 25th of each month. Pay day is the last
working
day of the month.

## When will my pay change after a promotion or pay rise?

Changes approved in the HR system by the **10th** of the month are included in that month's pay.
Anything later is paid the following month, with back pay.

## Why has my tax code changed?

The tax authority sets your tax code, not the company. It may change when you start receiving a benefit
such as private medical insurance, or when you have more than one job. Check your online tax account;
if the code is wrong, the tax authority will issue a new one to payroll.

## What are the deductions on my payslip?

- **Tax** and **NI**: income tax and national insurance.
- **Pension EE**: your pension contribution. **Pension ER** is the company's contribution and is shown
  for information only.
- **Salary sacrifice**: cycle-to-work, electric car or extra pension contributions you have chosen.

## I have been paid the wrong amount. What should I do?

Raise a **Payroll Correction** request with the pay period and what you expected to receive. Corrections
confirmed before the 15th are paid in the same month; otherwise they are paid in the next payroll.
Overpayments must be repaid, and payroll will agree a repayment plan with you.

## Can I get a copy of an old payslip or my P60?

Yes. The payroll portal keeps every payslip and P60 for six years.`,
    author: 'Nikhil Sharma',
    status: 'Published',
  },
  {
    department: 'hr',
    category_id: 5,
    title: 'New starter guide: your first week',
    content: `Welcome to the company. This guide explains what to expect in your first week and what you need
to
do.

## Before day one

- Return your signed contract and new starter form through the onboarding portal.
- Upload your right-to-work documents. HR will check the originals on your first morning.
- Send your bank details so that you are paid at the end of your first month.

## Day one

- Arrive at reception at **9:30**. Your manager or buddy will meet you.
- Facilities will take your photo and issue your access badge.
- Collect your laptop from your manager and follow the **IT set-up checklist**.

## During the first week

- Meet your manager to agree objectives for your first 90 days.
- Complete the mandatory e-learning: information security, data protection, health and safety and the
  code of conduct. Together these take about two hours.
- Book onto the next **company welcome session**, run online on the first Wednesday of each month.
- Read the employee handbook, in particular the sections on leave, expenses and hybrid working.

## Probation

Most roles have a six-month probation period. Your manager will hold check-ins at one, three and five
months. Raise any concerns early; HR is happy to help.

## Who to ask

Your buddy is your first port of call for day-to-day questions. For anything about pay, contracts or
leave, raise a request with HR on the service desk.`,
    author: 'Charlotte Pemberton',
    status: 'Published',
  },
  {
    department: 'hr',
    category_id: 3,
    title: 'Hybrid working guidelines',
    content: `These guidelines are in draft and are being reviewed with employee representatives. They do not
yet
replace the current flexible working policy.

## Principles

- Hybrid working is a privilege based on the needs of the role, the team and our customers. It is not
  a contractual right unless agreed through a formal flexible working request.
- Most roles are expected to spend **at least two days a week** in the office. Teams agree shared
  "anchor days" so that people are in at the same time.
- Some roles, such as reception, facilities and lab work, need to be on site full time.

## Working from home

- You must have a safe, private place to work and a reliable internet connection.
- Complete the home workstation self-assessment in the learning platform. Facilities can provide a
  monitor, keyboard and chair if the assessment shows they are needed.
- Do not print confidential documents at home, and keep devices locked when not in use.
- Working from another country, even for a few days, needs HR approval in advance because of tax and
  immigration rules.

## Managers

Managers should review the team's pattern every six months and make sure that hybrid working is applied
fairly. Requests should be considered in line with the flexible working policy and any reasonable
adjustments.

Send feedback on this draft to the HR policy team by the end of the consultation period.`,
    author: 'Alistair Greaves',
    status: 'Draft',
  },
  // ---------------------------------------------------------------- Facilities
  {
    department: 'facilities',
    category_id: 1,
    title: 'Booking a meeting room and starting a video call',
    content: `All meeting rooms can be booked from Outlook or from the panel outside the room.

## Booking from Outlook

1. Create a new meeting and select **Room Finder**.
2. Choose the building and floor, and filter by capacity and equipment (for example **Video
   conferencing**).
3. Add the room as a location and send the invitation. The room accepts automatically if it is free.

Rooms not checked in to within 10 minutes of the start time are released for others to use.

## Starting a Teams call in the room

1. Tap the touch panel on the table to wake it. Your meeting appears on the screen if the room was
   invited.
2. Tap **Join**. The camera, microphones and speakers are selected automatically.
3. To share your screen, join the meeting from your laptop with audio **off**, then select **Share**.
   Alternatively, plug in the HDMI or USB-C cable on the table.

## When you finish

- Tap **Leave** on the touch panel so that the next meeting can start cleanly.
- Wipe the whiteboard, return chairs and take your rubbish with you.
- End the booking in Outlook if you finish early so that the room is released.

If something does not work, use the **Meeting Room AV Fault** service. If your meeting is in progress,
tick the box and an engineer will come to the room.`,
    author: 'Rosie Underwood',
    status: 'Published',
  },
  {
    department: 'facilities',
    category_id: 2,
    title: 'Meeting room screen shows "No signal": quick fixes',
    content: `Most meeting room screen problems can be fixed in under two minutes. Try these steps before
raising a
fault.

## If the screen is blank or shows "No signal"

1. Check that the screen is on. The power light on the bottom edge should be white, not red.
2. Tap the touch panel on the table. If it is dark, the room system may be asleep; tap again and wait
   15 seconds.
3. Select the correct input on the panel: **Laptop (HDMI)**, **Laptop (USB-C)** or **Teams Room**.

## If your laptop is connected but nothing appears

1. Unplug the cable, wait five seconds and plug it in again firmly.
2. On Windows, press **Windows key + P** and choose **Duplicate**.
3. On macOS, open **System Settings > Displays** and check the screen is detected. Use the USB-C cable
   rather than an adapter where possible.
4. Close the laptop lid and open it again. This forces the laptop to look for displays.

## If the picture is there but there is no sound

Check the volume on the touch panel, then on your laptop. In Teams, select **Device settings** and make
sure the speaker is set to the room system, not your laptop.

## Still not working?

Raise a **Meeting Room AV Fault** request with the room name and what you see on the screen. Tick
**A meeting is in progress now** for an engineer visit within 15 minutes during office hours.`,
    author: 'Kwame Asante',
    status: 'Published',
  },
  {
    department: 'facilities',
    category_id: 4,
    title: 'Access badges: lost, forgotten or not working',
    content: `Your access badge opens doors, releases print jobs and pays for food in the staff restaurant.
Always wear it visibly when you are in the building.

## I have forgotten my badge

Go to reception with photo ID. Reception will issue a temporary badge that works until 18:00 on the
same day. Please return it when you leave. Temporary badges cannot be used for restricted areas.

## I have lost my badge

Raise an **Access Badge Request** and choose **Replacement (lost)** straight away, even outside office
hours. The old badge is deactivated as soon as the request is logged, so it cannot be misused. A new
badge is usually ready at reception the next working day. A replacement fee is not charged for the
first loss in a year.

## My badge stopped working

Badges can stop working if the chip is damaged or bent. Try holding it flat against the reader for two
seconds. If it still does not work, request a **Replacement (damaged)**. Badges also stop working
automatically if you have not used them for 90 days.

## How do I get access to a restricted area?

Request **Additional area access**. Access to the server room, data centre and archive store needs
approval from the area owner and is reviewed every six months.

## Visitors

Visitors must be registered in the visitor system by their host before they arrive, and must be
accompanied at all times.`,
    author: 'Rosie Underwood',
    status: 'Published',
  },
  // ---------------------------------------------------------------- Finance
  {
    department: 'finance',
    category_id: 3,
    title: 'Expenses policy: what you can claim',
    content: `You can claim reasonable costs you incur wholly and necessarily for company business. Always
choose
the most economical option that is practical.

## Travel

- **Rail**: standard class. First class is allowed for journeys over four hours if booked at least 7
  days in advance and no more than 20% dearer than standard.
- **Air**: economy for flights under six hours. Book through the travel portal.
- **Mileage** in your own car: 45p per mile for the first 10,000 business miles in a tax year, then 25p.
  Commuting to your normal workplace cannot be claimed.
- **Taxis**: only where public transport is unavailable, unsafe or impractical, for example late at night
  or with heavy equipment.

## Hotels and meals

- Hotel limits per night (room only): 160 in London, 110 elsewhere in the UK, or the local limit in the
  travel portal for overseas stays.
- Meals when travelling overnight: up to 35 per day including drinks.
- Client entertainment must be approved in advance by your manager and list all attendees.

## You cannot claim

Alcohol without a meal, fines and parking penalties, personal travel insurance, upgrades, minibar
charges, or gifts for colleagues.

## Receipts and deadlines

Attach an itemised receipt for every item. Claims must be submitted within 60 days of the expense. If
you lose a receipt, complete the missing receipt declaration; this can only be used twice a year.`,
    author: 'Hannah Whitaker',
    status: 'Published',
  },
  {
    department: 'finance',
    category_id: 1,
    title: 'How to submit an expense claim',
    content: `Expense claims are submitted in the expenses app on your laptop or phone. Claims approved by
Tuesday
at 17:00 are paid in that Friday's payment run.

## Capture your receipts

1. Open the expenses app and tap **Add receipt**.
2. Take a photo of the whole receipt, flat and in good light. The app reads the date, merchant and
   amount automatically. Check them.
3. Keep paper receipts until the claim is paid, then you may discard them.

## Create the claim

1. Select **New claim** and give it a clear name, for example "Client visit, Manchester, 12-13 March".
2. Add the receipts and choose an expense type for each: rail, hotel, subsistence and so on.
3. For mileage, enter the start and end postcodes. The app calculates the distance and the rate.
4. For client entertainment, list the attendees and their organisations.
5. Foreign currency receipts are converted at the rate on the transaction date. If you paid by
   corporate card, they are matched automatically and you do not need to claim them.

## Submit and track

Select **Submit**. The claim goes to your line manager, then to the finance team for audit. You can see
its status at any time in the app.

If a claim is rejected, the reason appears in the app. Correct the item and resubmit. For anything
else, raise an **Expense Reimbursement Query** with the claim reference.`,
    author: 'Hannah Whitaker',
    status: 'Published',
  },
  {
    department: 'finance',
    category_id: 4,
    title: 'Corporate card FAQ',
    content: `## Who can have a corporate card?

Permanent employees who regularly spend more than 500 a month on business travel, events or suppliers
that only accept cards. Apply with a **Corporate Card Request**, approved by your budget holder.

## What can I use it for?

Business expenses allowed by the expenses policy. Never use it for personal purchases, even if you
intend to pay the money back, and never withdraw cash.

## How do I account for my spending?

Card transactions appear in the expenses app within two days. Attach the receipt and choose an expense
type within **30 days** of the transaction. Unreconciled transactions older than 60 days will result in
your card being suspended.

## Who pays the bill?

The company pays the card provider directly. You are not personally liable for legitimate business
spending, but you are responsible for any personal or unauthorised use.

## My card has been declined. Why?

The most common reasons are that you have reached your monthly limit, the merchant is in a blocked
category (for example gambling or cash), or the card has been suspended for overdue reconciliation.
Check the card app first, then raise a ticket with Finance.

## I think my card has been used fraudulently

Call the card provider on the number on the back of the card immediately to block it, then tell
Finance. Do not wait until the statement arrives.

## I am leaving the company. What happens to my card?

Reconcile all transactions and hand the card to your manager on your last day. Your manager should
raise a request to cancel it.`,
    author: 'Oliver Grant',
    status: 'Published',
  },
  {
    department: 'finance',
    category_id: 3,
    title: 'Financial year-end 2025: deadlines for all staff',
    content: `The financial year ends on 31 December 2025. To close the books on time, Finance needs everyone
to
meet the deadlines below.

## Deadlines

- **5 December**: last date to raise purchase requests for goods or services to be received this year.
- **12 December**: submit all expense claims for costs incurred up to 30 November.
- **15 December**: goods received notes (GRNs) must be entered for everything that has arrived.
- **19 December**: reconcile all corporate card transactions up to 15 December.
- **9 January**: submit expense claims and card reconciliations for the rest of December.

## Accruals

Budget holders must tell Finance about any costs over 5,000 where the work was done this year but no
invoice has been received. Use the accruals form on the Finance intranet page by **7 January**. Include
the supplier, the amount and what was delivered.

## Prepayments

If you paid in advance for something that covers next year, such as an annual software licence or a
conference in March, tell your finance business partner so it can be spread over the right period.

## Audit

The external auditors will be on site from late January. If you are asked for evidence, please respond
within three working days.

Thank you for your help in closing the year smoothly.`,
    author: 'Oliver Grant',
    status: 'Archived',
  },
  // ---------------------------------------------------------------- Legal
  {
    department: 'legal',
    category_id: 4,
    title: 'When do I need an NDA?',
    content: `A non-disclosure agreement (NDA) is a contract in which one or both parties promise to keep
information confidential and use it only for an agreed purpose.

## You need an NDA before you share

- Non-public financial results, forecasts or pricing.
- Product plans, designs, source code or technical specifications that have not been released.
- Customer, employee or supplier information (personal data also needs a data processing agreement).
- Details of a possible acquisition, investment or partnership.

## You usually do not need one for

- Information that is already public, such as our website or published brochures.
- Routine sales conversations that only cover published products and list prices.
- Suppliers already under a contract that contains confidentiality terms. Check with Legal if unsure.

## Which type?

- **Mutual**: both sides will share confidential information. This is the default.
- **One-way (we disclose)**: only we share, for example with a consultant or recruiter.
- **One-way (they disclose)**: only the other party shares, for example in a supplier briefing.

## How to get one

Raise an **NDA Request**. Standard mutual NDAs are sent for e-signature the same working day. If the
other party insists on their own template, attach it; Legal will review it within two working days.

Do not share anything confidential until the NDA has been signed by both parties, and share only what is
needed for the purpose.`,
    author: 'Eleanor Fairfax',
    status: 'Published',
  },
  {
    department: 'legal',
    category_id: 3,
    title: 'Contract review process and turnaround times',
    content: `All contracts that commit the company must be reviewed by Legal before signature, unless they
are on an
unchanged company template listed on the Legal intranet page.

## Turnaround times

| Contract | Target |
| --- | --- |
| Company template, no changes | 2 working days |
| Company template with counterparty changes | 5 working days |
| Counterparty paper under 100,000 | 5 working days |
| Counterparty paper over 100,000, or high risk | 10 working days |

High-risk contracts include anything involving personal data, unlimited liability, exclusivity, or
work outside the UK and EU.

## What to include in your request

1. The latest version of the contract in Word format, not PDF, where possible.
2. The commercial terms you have agreed: price, term, renewal and service levels.
3. Your deadline and the reason for it.
4. Any concerns or points the other side has already raised.

## Approval and signature

Once Legal has approved the contract, it must be signed by someone with authority under the delegation
of authority matrix. For most contracts, this depends on total contract value: up to 50,000 by a
director, up to 250,000 by an executive committee member, and above that by the Chief Executive or
Chief Financial Officer.

Never sign a contract, click-through terms or a purchase order from a supplier on behalf of the company
unless you have that authority.`,
    author: 'Eleanor Fairfax',
    status: 'Published',
  },
  {
    department: 'legal',
    category_id: 1,
    title: 'Signing documents electronically',
    content: `The company uses electronic signatures for most contracts. They are legally binding and much
faster
than wet-ink signatures.

## When e-signature can be used

- Customer and supplier agreements, NDAs, amendments and statements of work.
- Employment contracts and letters issued by HR.

## When a wet-ink signature is still needed

- Deeds, including most property documents and some guarantees.
- Documents that must be witnessed, unless Legal confirms a witnessed e-signature process is acceptable.
- Documents for some overseas authorities. Check with Legal.

## Sending a document for signature

1. Make sure the final version has been approved by Legal. Only Legal can send contracts over 50,000.
2. Upload the PDF to the e-signature platform and select the **Company signatory** template.
3. Add signers in the correct order: the counterparty first, then our authorised signatory.
4. Drag signature and date fields onto each signature block.
5. Send. You will be notified when each person signs.

## After signing

The completed document and its audit certificate are saved automatically to the contract repository.
Do not store signed contracts in personal folders or email.

This guidance is a draft and will be finalised once the new signatory template is live.`,
    author: 'Rajesh Iyer',
    status: 'Draft',
  },
  // ---------------------------------------------------------------- Procurement
  {
    department: 'procurement',
    category_id: 1,
    title: 'How to raise a purchase request',
    content: `Every purchase needs a purchase order (PO) before the supplier starts work or delivers goods.
Invoices without a PO number are returned to the supplier unpaid.

## Before you start

- Check the catalogue in the procurement system. Catalogue items such as stationery, IT accessories and
  standard furniture can be ordered directly and do not need a purchase request.
- Make sure the supplier is on the approved supplier list. If not, raise a **Supplier Onboarding**
  request first; this takes up to five working days.
- Confirm you have budget with your budget holder.

## Raising the request

1. Select **Purchase Request** in the service portal.
2. Describe exactly what you need, including model numbers or scope of work.
3. Enter the quantity, estimated unit price, currency and your cost centre.
4. Attach quotes. See **Purchasing thresholds and quotes** for how many you need.
5. Submit. The request goes to your budget holder for approval, then to Procurement.

## After approval

Procurement raises the PO and emails it to the supplier. You will receive a copy. When the goods or
services arrive, **receipt them** in the procurement system within five working days. This tells
Finance that the invoice can be paid.

## Common mistakes

- Asking suppliers to start before the PO is issued.
- Splitting one purchase into smaller orders to avoid approval limits. This is a breach of policy.`,
    author: 'Samantha Hale',
    status: 'Published',
  },
  {
    department: 'procurement',
    category_id: 3,
    title: 'Purchasing thresholds and quotes',
    content: `The number of quotes you need depends on the total value of the purchase over the whole contract
term, excluding VAT.

## Thresholds

- **Under 5,000**: one written quote. Use an approved supplier where one exists.
- **5,000 to 25,000**: three written quotes. Attach them to the purchase request with a short note on
  why you chose the supplier.
- **25,000 to 100,000**: a formal request for quotation run by Procurement, with written evaluation
  criteria agreed before quotes are opened.
- **Over 100,000**: a full tender run by Procurement, including a security and data protection
  assessment where relevant, and executive committee approval.

## Single-source purchases

If only one supplier can meet the need, for example for support on an existing system, complete the
single-source justification form. It must explain why alternatives are not suitable and be approved by
the Head of Procurement.

## Things to remember

- Work out the **total** value. A 3-year software subscription at 10,000 a year is a 30,000 purchase.
- Do not split requirements to stay below a threshold.
- Declare any personal relationship with a supplier to Procurement before quotes are requested.
- Gifts or hospitality offered by suppliers during a tender must be declined.

Procurement is happy to help you write a specification or evaluate quotes. Contact the team early,
especially for anything over 25,000.`,
    author: 'Samantha Hale',
    status: 'Published',
  },
  {
    department: 'procurement',
    category_id: 1,
    title: 'Supplier due diligence checklist',
    content: `Procurement completes these checks before a new supplier is added to the approved supplier list.
Requesters can speed things up by collecting the information in advance.

## Basic checks (all suppliers)

1. Company registration number and registered address, checked against the public register.
2. Bank details on company letterhead, **verified by a phone call** to a number we already hold, never
   one given in the same email.
3. VAT number, if the supplier is VAT-registered.
4. Sanctions and adverse media screening.

## Additional checks for annual spend over 25,000

- The last two years of filed accounts, or a credit check.
- Evidence of insurance: public liability of at least 5 million, plus professional indemnity for
  consultancy and services.
- A signed copy of the supplier code of conduct, covering modern slavery, anti-bribery and
  environmental standards.

## Suppliers that handle personal data or connect to our systems

- Information Security questionnaire, reviewed by the security team.
- Data processing agreement reviewed by Legal.
- ISO 27001 or SOC 2 certificate, if available.

## Timescales

Basic checks take up to two working days. Security assessments can take up to ten working days, so
raise the request as early as possible.

This checklist is being updated to include new sustainability questions and has not yet been approved.`,
    author: 'Thomas Beaumont',
    status: 'Draft',
  },
  // ---------------------------------------------------------------- Information Security
  {
    department: 'infosec',
    category_id: 6,
    title: 'How to spot and report a phishing email',
    content: `Phishing emails try to trick you into clicking a link, opening an attachment, entering your
password or
sending money. They are the most common way attackers get into organisations.

## Warning signs

- **Urgency or pressure**: "Your account will be closed today", "I need this before my meeting".
- **An unexpected request** for payment, gift cards, bank detail changes or login details.
- **A mismatched sender**: the display name says the CEO, but the address is a personal or unfamiliar
  domain. Hover over the name to see the real address.
- **Links that do not match**: hover over a link before clicking. Check the real domain, not the text.
- **Unexpected attachments**, especially ZIP files, HTML files or Office documents asking you to
  "enable content".
- The **External** tag at the top of an email that claims to come from a colleague.

## How to report

1. Select **Report phishing** in the Outlook toolbar. This sends the email to the security team and
   removes it from your inbox.
2. If you received it by text or phone, raise a **Phishing Report** on the service desk.
3. Do not forward the email to colleagues to warn them; the security team will do that if needed.

## If you have already clicked

Report it immediately and say what you did. You will not be in trouble. Acting within minutes makes a
huge difference. See **What to do if you clicked a suspicious link**.`,
    author: 'Aisha Rahman',
    status: 'Published',
  },
  {
    department: 'infosec',
    category_id: 6,
    title: 'What to do if you clicked a suspicious link',
    content: `Anyone can be caught out by a convincing phishing message. What matters is acting quickly.
Reporting
promptly is never a disciplinary matter.

## Immediately

1. **Do not** enter anything else on the page. Close the browser tab.
2. If you entered your password, change it now from another device if possible, using the
   self-service password reset page.
3. If you approved an MFA prompt you did not expect, or typed in an MFA code, say so in your report.
4. If you opened an attachment, disconnect the laptop from the network: turn off Wi-Fi and unplug the
   network cable. Leave the laptop switched on.

## Report it

Raise a **Phishing Report** and tick the boxes for what you did: clicked a link, opened an attachment
or entered your credentials. Reports with these boxes ticked page the on-call security analyst, 24
hours a day.

## What the security team will do

- Sign you out of all sessions and reset your MFA methods if needed.
- Check sign-in logs for access from unusual locations.
- Scan or isolate your laptop remotely.
- Block the sender and remove the message from other inboxes.

## Afterwards

Watch for unexpected emails sent from your account, new inbox rules, or MFA prompts you did not
trigger, and report them straight away. If the message asked for payment or bank detail changes,
tell Finance as well.`,
    author: 'Aisha Rahman',
    status: 'Published',
  },
  {
    department: 'infosec',
    category_id: 6,
    title: 'Data classification and handling',
    content: `All company information is classified into one of four levels. The classification decides how
it can
be stored, shared and disposed of. If in doubt, choose the higher level.

## Public

Information approved for release, such as published marketing material and press releases. No
restrictions.

## Internal

Day-to-day business information, such as intranet content, org charts and most email. Share only
with employees and contractors. Store in company systems.

## Confidential

Information that could harm the company, customers or staff if disclosed, such as contracts, pricing,
customer data, HR records and unreleased financial results.

- Apply the **Confidential** sensitivity label in Office. This encrypts the file.
- Share with named people only, not with "anyone with the link".
- Use an NDA before sharing with third parties.

## Restricted

The most sensitive information: board papers, merger and acquisition plans, security credentials,
special category personal data such as health records.

- Apply the **Restricted** label. Files cannot be forwarded, printed or downloaded to personal devices.
- Keep the distribution list as short as possible and review it regularly.
- Never send by email to external addresses. Use the secure file transfer service.

## Disposal

Put paper marked Confidential or Restricted in the locked confidential waste bins, never in normal
recycling. Return old devices and storage to IT for secure wiping.`,
    author: 'Jonathan Pryce',
    status: 'Published',
  },
  {
    department: 'infosec',
    category_id: 6,
    title: 'Travelling abroad with company devices',
    content: `Travelling with your laptop and phone brings extra risks: theft, inspection at border crossings
and
untrusted networks. Follow this guidance for all overseas business trips.

## Before you travel

1. Check the destination on the travel risk list on the security intranet page. Some countries require
   a **clean loan laptop** instead of your usual device; request one at least five working days before
   you leave.
2. Tell IT the dates and countries you will be visiting so that sign-ins from abroad are not blocked.
3. Install updates and make sure OneDrive has synced, so that nothing is stored only on the laptop.
4. Take only the data you need.

## While you are away

- Keep devices with you or locked in the hotel safe. Never leave them in a car or checked baggage.
- Use the VPN on any network other than a mobile hotspot from your company phone.
- Do not use public USB charging points. Use your own plug and charger.
- Be careful what you discuss and display in public places such as trains, lounges and cafés.

## Border inspections

If officials ask you to unlock a device, comply and do not resist. Afterwards, report the inspection to
the security team, who may ask to examine the device before you reconnect it to the network.

## Lost or stolen devices

Report it to the service desk immediately, day or night, so that the device can be wiped remotely.

This article is in draft pending review by the travel risk working group.`,
    author: 'Jonathan Pryce',
    status: 'Draft',
  },
  // ---------------------------------------------------------------- Communications
  {
    department: 'comms',
    category_id: 1,
    title: 'Writing a good intranet post',
    content: `The intranet is read by every employee, often on a phone. Short, clear posts get read; long
ones do
not. Use these guidelines when you submit an **Intranet Post** request.

## Structure

1. **Headline**: up to 70 characters. Say what is happening, not just the topic. "Staff restaurant now
   open for breakfast from 7:30" works better than "Restaurant update".
2. **First sentence**: the single most important point, including what readers need to do and by when.
3. **Body**: no more than 300 words. Use short paragraphs and bullet points.
4. **Call to action**: a link to the form, event or policy, with a clear deadline.

## Style

- Write in plain English. Use "you" and "we".
- Spell out acronyms the first time you use them.
- Use sentence case for headlines, and dates in the format 12 March.
- Avoid exclamation marks and words in capitals.

## Images

Use landscape images at least 1200 pixels wide. Do not use images found on the internet; use the
company image library or your own photos. Get consent from anyone identifiable in a photo.

## Timing

Posts are published on Tuesdays and Thursdays. Submit your request at least two working days before.
Urgent operational messages, such as building closures, can be published the same day.`,
    author: 'Lucy Merriweather',
    status: 'Published',
  },
  {
    department: 'comms',
    category_id: 3,
    title: 'Media enquiries: what to do if a journalist contacts you',
    content: `Only authorised spokespeople may speak to the media on behalf of the company. This protects you
and
makes sure that what we say is accurate and consistent.

## If a journalist contacts you

1. Be polite, but do not answer any questions or give an opinion, even "off the record".
2. Take their name, publication, phone number, the question they want answered and their deadline.
3. Say: "I am not the right person to help, but I will pass your details to our press office, who will
   get back to you."
4. Send the details to the Communications team straight away. Journalists often have deadlines within
   hours.

## Social media

- You may share the company's official posts, but do not comment on behalf of the company.
- Do not discuss customers, colleagues, financial performance or anything confidential.
- If a post about the company is attracting negative attention, do not reply. Tell Communications.

## Speaking at events and writing articles

If you have been invited to speak at a conference or write for a publication in your professional
role, submit your content through a **Press Release Review** request at least five working days before
it is due. Anything mentioning financial results must also be approved by Finance and Legal.

## Incidents

During an incident, such as a data breach or a serious accident, all external statements are issued by
Communications. Refer every enquiry, including from customers' media teams, to the press office.`,
    author: 'Benedict Harrow',
    status: 'Published',
  },
];
