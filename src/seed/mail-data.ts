/**
 * Static demo content of the mailbox: six team and personal mailboxes, their labels, the kinds of
 * conversations each one has (with placeholders filled in by the seed) and their calendars.
 */

export type MailboxKind = 'sales' | 'support' | 'billing' | 'hr' | 'personal';

export interface MailboxSeed {
  address: string;
  name: string;
  kind: MailboxKind;
  /** The person who answers from this mailbox. */
  signature: string;
}

export const MAILBOXES: readonly MailboxSeed[] = [
  { address: 'sales@northwind.example', name: 'Northwind Sales', kind: 'sales', signature: 'Hanna Vogel' },
  {
    address: 'support@northwind.example',
    name: 'Northwind Support',
    kind: 'support',
    signature: 'Mikkel Jensen',
  },
  {
    address: 'billing@northwind.example',
    name: 'Northwind Billing',
    kind: 'billing',
    signature: 'Sabine Koch',
  },
  { address: 'hr@northwind.example', name: 'Northwind People Team', kind: 'hr', signature: 'Amira Haddad' },
  { address: 'ana.lopez@northwind.example', name: 'Ana López', kind: 'personal', signature: 'Ana' },
  { address: 'jonas.berg@northwind.example', name: 'Jonas Berg', kind: 'personal', signature: 'Jonas' },
];

export const USER_LABELS: Record<MailboxKind, readonly string[]> = {
  sales: ['Leads', 'Proposals', 'Renewals', 'Partners', 'Follow up', 'Won', 'Lost'],
  support: ['Priority', 'Bugs', 'Feature requests', 'SSO', 'Waiting for customer', 'Escalated', 'Resolved'],
  billing: ['Invoices', 'Reminders', 'Payments', 'Disputes', 'Vendors', 'Tax'],
  hr: [
    'Applications',
    'Interviews',
    'Onboarding',
    'Leave',
    'Payroll',
    'Policies',
    'Candidates/Engineering',
    'Candidates/Sales',
    'Candidates/Finance',
    'Candidates/Operations',
  ],
  personal: [
    'Projects/Atlas',
    'Projects/Beacon',
    'Travel',
    'Receipts',
    'Newsletters',
    'Board',
    'Team',
    'Follow up',
    'Read later',
  ],
};

/** How many `Clients/<company>` labels each kind of mailbox keeps. */
export const CLIENT_LABELS: Record<MailboxKind, number> = {
  sales: 30,
  support: 30,
  billing: 30,
  hr: 0,
  personal: 8,
};

/** Gmail's label palette: background and text colour. */
export const LABEL_COLOURS: readonly [string, string][] = [
  ['#fb4c2f', '#ffffff'],
  ['#ffad47', '#ffffff'],
  ['#fad165', '#000000'],
  ['#16a766', '#ffffff'],
  ['#43d692', '#000000'],
  ['#4a86e8', '#ffffff'],
  ['#a479e2', '#ffffff'],
  ['#f691b3', '#000000'],
  ['#2da2bb', '#ffffff'],
  ['#b99aff', '#000000'],
];

export interface ThreadTemplate {
  subject: string;
  /** Each message: who writes (`in`: the correspondent, `out`: the mailbox) and what. */
  messages: readonly { from: 'in' | 'out'; body: string; attachment?: string }[];
  /** User labels the conversation gets. */
  labels: readonly string[];
  /** A conversation with a colleague (from the company directory) rather than someone outside. */
  internal?: boolean;
}

export const THREADS: Record<MailboxKind, readonly ThreadTemplate[]> = {
  sales: [
    {
      subject: 'Pricing for {product} ({n} users)',
      labels: ['Leads', 'Proposals'],
      messages: [
        {
          from: 'in',
          body: 'Hello, we are evaluating {product} for about {n} users at {company}. Could you share your pricing and the usual contract terms?',
        },
        {
          from: 'out',
          body: 'Thank you for your interest! Attached is our proposal for {n} users, including onboarding. Happy to walk you through it on a call.',
          attachment: 'Proposal_{company}.pdf',
        },
        {
          from: 'in',
          body: 'Thanks. Is there a discount for a three-year commitment? Our procurement team will ask.',
        },
        {
          from: 'out',
          body: 'Yes, a three-year term comes with 12% off the annual price. I have updated the proposal accordingly.',
        },
        {
          from: 'in',
          body: 'Great, we will review it internally and come back to you by the end of next week.',
        },
      ],
    },
    {
      subject: 'Demo follow-up: {product}',
      labels: ['Follow up'],
      messages: [
        {
          from: 'out',
          body: 'Hi {first}, thank you for your time today. As promised, here are the slides and the recording of the demo.',
          attachment: 'Northwind_{product}_demo.pptx',
        },
        {
          from: 'in',
          body: 'Thanks! Two questions from our IT team: do you support SAML single sign-on, and where is the data hosted?',
        },
        {
          from: 'out',
          body: 'Both good questions: SAML 2.0 and OpenID Connect are supported, and all data is hosted in Frankfurt and Amsterdam.',
        },
      ],
    },
    {
      subject: 'Renewal of your {product} subscription',
      labels: ['Renewals'],
      messages: [
        {
          from: 'out',
          body: 'Dear {first}, your {product} subscription renews on {date}. Please let us know if the number of users should change.',
        },
        {
          from: 'in',
          body: 'Please renew with {n} users and send the invoice to our accounts payable address.',
        },
        {
          from: 'out',
          body: 'Done: the renewal is confirmed for {n} users. The invoice follows from billing@northwind.example.',
        },
      ],
    },
    {
      subject: 'Security questionnaire for {company}',
      labels: ['Proposals'],
      messages: [
        {
          from: 'in',
          body: 'Before we can sign, our security team needs the attached questionnaire completed.',
          attachment: 'Security_Questionnaire_{company}.xlsx',
        },
        {
          from: 'out',
          body: 'Please find the completed questionnaire attached, together with our ISO 27001 certificate.',
          attachment: 'Security_Questionnaire_{company}_completed.xlsx',
        },
        { from: 'in', body: 'Thank you, this is very complete. We will get back to you after the review.' },
      ],
    },
    {
      subject: 'Order form {company} \u2013 {product}',
      labels: ['Won'],
      messages: [
        {
          from: 'out',
          body: 'Hi {first}, attached is the order form for {product}. Once signed, we will schedule the kick-off.',
          attachment: 'Order_Form_{company}.pdf',
        },
        {
          from: 'in',
          body: 'Signed copy attached. Looking forward to the kick-off!',
          attachment: 'Order_Form_{company}_signed.pdf',
        },
      ],
    },
    {
      subject: 'Introduction: {company} x Northwind',
      labels: ['Partners'],
      messages: [
        {
          from: 'in',
          body: 'Hi, I am reaching out on behalf of {company}: we implement HR and service tools for mid-sized companies and would like to explore a partnership.',
        },
        {
          from: 'out',
          body: 'Thanks for reaching out! Our partner programme sounds like a fit. Would Tuesday at 10:00 work for a first call?',
        },
      ],
    },
  ],
  support: [
    {
      subject: '[Ticket #{n}] Cannot log in after password reset',
      labels: ['Priority'],
      messages: [
        {
          from: 'in',
          body: 'Since resetting my password this morning I get "invalid credentials" on every attempt. Several colleagues at {company} have the same problem.',
        },
        {
          from: 'out',
          body: 'Sorry for the trouble. Could you tell us whether you sign in with SSO or with a password, and which browser you use?',
        },
        { from: 'in', body: 'We use SSO through Entra ID, in Edge and Chrome.' },
        {
          from: 'out',
          body: 'Thank you: a certificate rotation on your identity provider caused this. We have updated the metadata and sign-in works again.',
        },
      ],
    },
    {
      subject: '[Ticket #{n}] Export to Excel fails',
      labels: ['Bugs'],
      messages: [
        {
          from: 'in',
          body: 'Exporting the monthly report to Excel ends with an error. Screenshot attached.',
          attachment: 'export_error.png',
        },
        {
          from: 'out',
          body: 'Thanks for the screenshot. The export hits a limit above 100,000 rows; a fix is planned for the next release. Filtering by month works in the meantime.',
        },
        { from: 'in', body: 'The workaround helps, thank you.' },
      ],
    },
    {
      subject: '[Ticket #{n}] SSO configuration with Entra ID',
      labels: ['SSO'],
      messages: [
        {
          from: 'in',
          body: 'We want to switch {company} to single sign-on. Which claims do you need from Entra ID?',
        },
        {
          from: 'out',
          body: 'We need email, given name and family name; groups are optional. The setup guide is attached.',
          attachment: 'Northwind_SSO_Guide.pdf',
        },
        { from: 'in', body: 'Configured, but users land on an error page after signing in.' },
        {
          from: 'out',
          body: 'The reply URL was missing the trailing slash. After correcting it, please try again.',
        },
        { from: 'in', body: 'That was it, everything works now. Thanks!' },
      ],
    },
    {
      subject: '[Ticket #{n}] Dashboards load slowly',
      labels: ['Escalated'],
      messages: [
        { from: 'in', body: 'Our dashboards take more than 30 seconds to load since Monday.' },
        {
          from: 'out',
          body: 'We are investigating and have escalated this to engineering. We will update you within four hours.',
        },
        {
          from: 'out',
          body: 'Update: an index was missing after the last migration. It has been rebuilt and load times are back below two seconds.',
        },
      ],
    },
    {
      subject: '[Ticket #{n}] Feature request: bulk edit of records',
      labels: ['Feature requests'],
      messages: [
        { from: 'in', body: 'It would save us hours if we could change the owner of many records at once.' },
        {
          from: 'out',
          body: 'Thank you for the suggestion, we have added your vote to the existing request and will keep you posted.',
        },
      ],
    },
  ],
  billing: [
    {
      subject: 'Invoice INV-2026-{n}',
      labels: ['Invoices'],
      messages: [
        {
          from: 'out',
          body: 'Dear {first}, please find attached invoice INV-2026-{n} for {product}.',
          attachment: 'INV-2026-{n}.pdf',
        },
        {
          from: 'in',
          body: 'Our purchase order number is missing on the invoice, we cannot process it without one. The PO is 4500{n}.',
        },
        {
          from: 'out',
          body: 'Apologies, the corrected invoice with PO 4500{n} is attached.',
          attachment: 'INV-2026-{n}-corrected.pdf',
        },
      ],
    },
    {
      subject: 'Payment reminder: INV-2026-{n}',
      labels: ['Reminders'],
      messages: [
        {
          from: 'out',
          body: 'Dear {first}, our records show invoice INV-2026-{n} as unpaid. Could you check the status of the payment?',
        },
        { from: 'in', body: 'The payment was released on {date}, it should arrive in the next few days.' },
        { from: 'out', body: 'Thank you, we have received the payment.' },
      ],
    },
    {
      subject: 'Change of billing address for {company}',
      labels: ['Invoices'],
      messages: [
        {
          from: 'in',
          body: 'From next month, please send invoices for {company} to our new shared service centre address.',
        },
        { from: 'out', body: 'Noted, the billing address has been updated for all future invoices.' },
      ],
    },
    {
      subject: 'Question about credit note CN-{n}',
      labels: ['Disputes'],
      messages: [
        {
          from: 'in',
          body: 'We received credit note CN-{n} but cannot match it to an invoice. Can you help?',
        },
        {
          from: 'out',
          body: 'The credit note refers to the unused onboarding days on INV-2026-{n}. Details attached.',
          attachment: 'CN-{n}.pdf',
        },
      ],
    },
  ],
  hr: [
    {
      subject: 'Application: {role} \u2013 {first} {last}',
      labels: ['Applications'],
      messages: [
        {
          from: 'in',
          body: 'Dear People Team, I would like to apply for the {role} position. My CV is attached.',
          attachment: 'CV_{first}_{last}.pdf',
        },
        {
          from: 'out',
          body: 'Dear {first}, thank you for your application. We would like to invite you to a first interview next week.',
        },
        { from: 'in', body: 'Thank you, Wednesday afternoon works well for me.' },
      ],
    },
    {
      subject: 'Onboarding: {first} starts on {date}',
      labels: ['Onboarding'],
      messages: [
        {
          from: 'out',
          body: 'Hi {first}, welcome aboard! Attached is your first-week plan. Your laptop will be ready at reception.',
          attachment: 'First_week_plan.pdf',
        },
        { from: 'in', body: 'Thank you, I am looking forward to it! Is there parking at the office?' },
        { from: 'out', body: 'Yes, a parking card will be ready for you on day one.' },
      ],
    },
    {
      subject: 'Leave request {date}',
      internal: true,
      labels: ['Leave'],
      messages: [
        { from: 'in', body: 'Hi, I would like to take leave from {date} for a week. My manager has agreed.' },
        { from: 'out', body: 'Approved and recorded, enjoy your time off!' },
      ],
    },
    {
      subject: 'Question about my payslip',
      internal: true,
      labels: ['Payroll'],
      messages: [
        { from: 'in', body: 'My payslip does not show the overtime from last month. Could you check?' },
        {
          from: 'out',
          body: 'You are right, the overtime was approved after the cut-off. It will be paid with the next salary.',
        },
      ],
    },
  ],
  personal: [
    {
      subject: 'Project update: {project}',
      internal: true,
      labels: ['Projects/Atlas'],
      messages: [
        {
          from: 'in',
          body: 'Hi, quick update on {project}: the data migration passed the second mock load, user acceptance testing starts next week.',
        },
        { from: 'out', body: 'Great progress, thanks! Any risks for the go-live date?' },
        {
          from: 'in',
          body: 'Only the availability of the finance key users during year-end. We are planning around it.',
        },
      ],
    },
    {
      subject: 'Board deck draft v{v}',
      internal: true,
      labels: ['Board'],
      messages: [
        {
          from: 'in',
          body: 'Here is the draft for the board meeting. Comments welcome by Thursday.',
          attachment: 'Board_deck_v{v}.pptx',
        },
        {
          from: 'out',
          body: 'Looks good. Slide 7 needs the updated forecast, and I would move the risks before the roadmap.',
        },
        { from: 'in', body: 'Updated version attached.', attachment: 'Board_deck_v{v2}.pptx' },
      ],
    },
    {
      subject: 'Lunch next week?',
      internal: true,
      labels: ['Team'],
      messages: [
        { from: 'in', body: 'Hi! Are you free for lunch next week? Tuesday or Thursday would suit me.' },
        { from: 'out', body: 'Thursday works, 12:30 at the usual place?' },
        { from: 'in', body: 'Perfect, see you then.' },
      ],
    },
    {
      subject: 'Travel: offsite in Berlin',
      labels: ['Travel'],
      messages: [
        {
          from: 'in',
          body: 'Your itinerary for the offsite is attached: flights, hotel and the venue address.',
          attachment: 'Itinerary_Berlin.pdf',
        },
        { from: 'out', body: 'Thanks! Could you move the return flight to the evening?' },
      ],
    },
    {
      subject: 'Planning for Q1 2027',
      internal: true,
      labels: ['Follow up'],
      messages: [
        {
          from: 'in',
          body: 'Could you send me your team priorities for Q1 by Friday? A few bullet points are enough.',
        },
        {
          from: 'out',
          body: 'Here they are: finish the {project} rollout, hire two engineers, and reduce support backlog by 30%.',
        },
      ],
    },
  ],
};

/** Messages that arrive alone: notifications, newsletters and the occasional spam. */
export const NOTIFICATIONS: readonly {
  from: string;
  email: string;
  subject: string;
  body: string;
  label?: string;
  spam?: boolean;
}[] = [
  {
    from: 'Northwind Analytics',
    email: 'no-reply@analytics.northwind.example',
    subject: 'Your weekly analytics digest',
    body: 'Active users rose by 4% this week. Three dashboards were shared with your team.',
    label: 'Read later',
  },
  {
    from: 'Microsoft account team',
    email: 'account-security-noreply@accountprotection.microsoft.com',
    subject: 'New sign-in from Chrome on Windows',
    body: 'We noticed a new sign-in to your account. If this was you, you can ignore this message.',
  },
  {
    from: 'Lufthansa',
    email: 'online@booking-lufthansa.com',
    subject: 'Your booking confirmation',
    body: 'Thank you for booking with us. Your e-ticket and receipt are attached.',
    label: 'Receipts',
  },
  {
    from: 'LinkedIn',
    email: 'messages-noreply@linkedin.com',
    subject: 'You have 5 new connection requests',
    body: 'People are waiting to connect with you. See who wants to join your network.',
    label: 'Newsletters',
  },
  {
    from: 'Gartner Research',
    email: 'newsletter@gartner.com',
    subject: 'This week in enterprise software',
    body: 'The latest research on service management, HR technology and analytics platforms.',
    label: 'Newsletters',
  },
  {
    from: 'DocuSign',
    email: 'dse@docusign.net',
    subject: 'Completed: please review the signed agreement',
    body: 'All parties have completed the document. You can view or download it now.',
  },
  {
    from: 'Calendly',
    email: 'notifications@calendly.com',
    subject: 'New event: 30 minute meeting',
    body: 'A new event has been scheduled with you. Details are in your calendar.',
  },
  {
    from: 'Prize Department',
    email: 'winner@lucky-draw.example',
    subject: 'You have been selected for a reward!!!',
    body: 'Claim your reward now by confirming your bank details.',
    spam: true,
  },
  {
    from: 'Crypto Alerts',
    email: 'alerts@fast-profit.example',
    subject: 'Last chance: 300% returns guaranteed',
    body: 'Invest today and see your savings grow overnight.',
    spam: true,
  },
];

export const PRODUCTS = [
  'Service Desk',
  'HR Suite',
  'Analytics Platform',
  'Portfolio Management',
  'Learning Platform',
];
export const ROLES = [
  'Senior Backend Engineer',
  'Account Executive',
  'Financial Controller',
  'Operations Manager',
  'Data Analyst',
];
export const PROJECTS = ['Atlas', 'Beacon', 'Cobalt'];

export const COLLEAGUES: readonly { name: string; email: string; job_title: string }[] = [
  { name: 'Helena Brandt', email: 'helena.brandt@northwind.example', job_title: 'CIO' },
  { name: 'Marc Delacroix', email: 'marc.delacroix@northwind.example', job_title: 'CCO' },
  { name: 'Johanna Meier', email: 'johanna.meier@northwind.example', job_title: 'CFO' },
  { name: 'Tomasz Nowak', email: 'tomasz.nowak@northwind.example', job_title: 'CISO' },
  { name: 'Pieter de Vries', email: 'pieter.devries@northwind.example', job_title: 'COO' },
  { name: 'Eva Novak', email: 'eva.novak@northwind.example', job_title: 'Project Manager' },
  { name: 'Lukas Weber', email: 'lukas.weber@northwind.example', job_title: 'Head of Engineering' },
  { name: 'Sophie Dubois', email: 'sophie.dubois@northwind.example', job_title: 'Product Manager' },
  { name: 'Rita Costa', email: 'rita.costa@northwind.example', job_title: 'Executive Assistant' },
  { name: 'Daniel Kowalski', email: 'daniel.kowalski@northwind.example', job_title: 'Finance Manager' },
];

export const MEETINGS: Record<MailboxKind, readonly string[]> = {
  sales: [
    'Demo with {company}',
    'Discovery call {company}',
    'Pipeline review',
    'QBR {company}',
    'Pricing call with {company} procurement',
  ],
  support: [
    'Escalation call {company}',
    'Support stand-up',
    'Onboarding call {company}',
    'Release briefing',
    'Customer health review',
  ],
  billing: [
    'Month-end close',
    'Collections review',
    'Call with {company} accounts payable',
    'Audit preparation',
  ],
  hr: [
    'Interview: {role}',
    'Onboarding session',
    'Works council meeting',
    'Payroll review',
    'Benefits briefing',
  ],
  personal: [
    '1:1 {colleague}',
    '{project} steering committee',
    'Board preparation',
    'Team lunch',
    'Quarterly planning',
    'Focus time',
  ],
};

export const LOCATIONS = [
  'Meeting room Amsterdam (3rd floor)',
  'Meeting room Berlin',
  'Customer office',
  'Online',
  'Café Nord',
];
