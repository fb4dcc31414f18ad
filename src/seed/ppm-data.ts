/**
 * Static demo content of the project portfolio: the programmes of a mid-sized European group with
 * their projects, and the templates their workstreams, milestones, risks and documents are drawn from.
 */

export interface ProjectSeed {
  name: string;
  description: string;
}

export interface ProgrammeSeed {
  name: string;
  description: string;
  sponsor: string;
  projects: readonly ProjectSeed[];
}

export const PROGRAMMES: readonly ProgrammeSeed[] = [
  {
    name: 'Digital Workplace',
    description: 'Modern collaboration, device management and self-service for 6,000 employees.',
    sponsor: 'Helena Brandt (CIO)',
    projects: [
      {
        name: 'Microsoft 365 Rollout',
        description: 'Move mail, files and chat to Microsoft 365 for all sites.',
      },
      {
        name: 'Intranet Relaunch',
        description: 'Replace the legacy intranet with a SharePoint-based portal.',
      },
      {
        name: 'Device Lifecycle Automation',
        description: 'Zero-touch laptop provisioning with Intune and Autopilot.',
      },
      { name: 'Employee Self-Service Portal', description: 'One portal for IT, HR and facilities requests.' },
      {
        name: 'Meeting Room Modernisation',
        description: 'Teams Rooms in 140 meeting rooms across 12 offices.',
      },
    ],
  },
  {
    name: 'Customer Experience Transformation',
    description: 'A single view of the customer across web, shop and contact centre.',
    sponsor: 'Marc Delacroix (CCO)',
    projects: [
      {
        name: 'Customer Data Platform',
        description: 'Unify customer profiles from e-commerce, CRM and loyalty.',
      },
      { name: 'Contact Centre Replacement', description: 'Cloud contact centre with omnichannel routing.' },
      {
        name: 'Loyalty Programme 2.0',
        description: 'Tiered loyalty with partner rewards and a mobile wallet.',
      },
      {
        name: 'Web Shop Replatforming',
        description: 'Headless commerce for the DACH and Benelux web shops.',
      },
      { name: 'Customer Feedback Loop', description: 'NPS and CSAT surveys wired into service recovery.' },
      {
        name: 'Mobile App Redesign',
        description: 'Native iOS and Android apps with account and order tracking.',
      },
    ],
  },
  {
    name: 'ERP Modernisation',
    description: 'Migrate finance, procurement and logistics from ECC 6.0 to S/4HANA.',
    sponsor: 'Johanna Meier (CFO)',
    projects: [
      {
        name: 'S/4HANA Finance Migration',
        description: 'General ledger, AP/AR and asset accounting on S/4HANA.',
      },
      {
        name: 'Procure-to-Pay Redesign',
        description: 'Harmonised purchasing with guided buying and e-invoicing.',
      },
      { name: 'Order-to-Cash Harmonisation', description: 'One order process for all sales companies.' },
      {
        name: 'Master Data Governance',
        description: 'Golden records for material, customer and supplier data.',
      },
      {
        name: 'Group Reporting Consolidation',
        description: 'Close and consolidation in SAP Group Reporting.',
      },
    ],
  },
  {
    name: 'Data & Analytics Platform',
    description: 'A governed lakehouse and self-service analytics for every business unit.',
    sponsor: 'Helena Brandt (CIO)',
    projects: [
      {
        name: 'Lakehouse Foundation',
        description: 'Cloud lakehouse with ingestion, catalogue and access control.',
      },
      {
        name: 'Sales Analytics Dashboards',
        description: 'Self-service dashboards for sales and margin steering.',
      },
      {
        name: 'Demand Forecasting Model',
        description: 'ML demand forecasts for 40,000 SKUs at store level.',
      },
      { name: 'Data Quality Programme', description: 'Rules, monitoring and stewardship for critical data.' },
      {
        name: 'Finance Data Mart',
        description: 'Curated finance data for planning and management reporting.',
      },
    ],
  },
  {
    name: 'Cyber Security Uplift',
    description: 'Close the gaps of the 2025 security assessment and prepare for NIS2.',
    sponsor: 'Tomasz Nowak (CISO)',
    projects: [
      {
        name: 'Identity & Access Management',
        description: 'Single sign-on, MFA and joiner-mover-leaver automation.',
      },
      { name: 'Security Operations Centre', description: 'Managed SOC with 24x7 detection and response.' },
      { name: 'Privileged Access Management', description: 'Vaulted admin accounts with session recording.' },
      { name: 'Endpoint Detection & Response', description: 'EDR on all servers and endpoints.' },
      { name: 'Security Awareness Programme', description: 'Phishing simulations and role-based training.' },
    ],
  },
  {
    name: 'Supply Chain Optimisation',
    description: 'Shorter lead times and lower stock through planning and warehouse automation.',
    sponsor: 'Pieter de Vries (COO)',
    projects: [
      {
        name: 'Warehouse Management System',
        description: 'WMS for the Venlo and Poznan distribution centres.',
      },
      { name: 'Transport Management System', description: 'Carrier selection, tendering and freight audit.' },
      {
        name: 'Sales & Operations Planning',
        description: 'Monthly S&OP cycle with integrated business planning.',
      },
      {
        name: 'Supplier Collaboration Portal',
        description: 'Forecasts, orders and ASNs shared with suppliers.',
      },
      { name: 'Inventory Optimisation', description: 'Multi-echelon safety stock optimisation.' },
    ],
  },
  {
    name: 'Sustainability & Net Zero',
    description: 'Measure, report and reduce emissions in line with CSRD and the 2030 targets.',
    sponsor: 'Ingrid Larsen (CSO)',
    projects: [
      { name: 'CSRD Reporting', description: 'Double materiality assessment and ESRS disclosures.' },
      { name: 'Carbon Accounting Platform', description: 'Scope 1, 2 and 3 emissions from activity data.' },
      {
        name: 'Fleet Electrification',
        description: 'Replace 400 company cars and vans with electric vehicles.',
      },
      { name: 'Solar Rooftops', description: 'Rooftop photovoltaics on nine warehouses.' },
    ],
  },
  {
    name: 'Cloud Migration',
    description: 'Exit the Frankfurt data centre by the end of 2027.',
    sponsor: 'Helena Brandt (CIO)',
    projects: [
      { name: 'Landing Zone Build', description: 'Secure multi-account landing zone with guardrails.' },
      { name: 'Application Migration Wave 1', description: 'Rehost 60 low-complexity applications.' },
      {
        name: 'Application Migration Wave 2',
        description: 'Replatform 35 applications with managed databases.',
      },
      { name: 'Data Centre Exit', description: 'Decommission hardware and end the co-location contract.' },
      {
        name: 'FinOps Practice',
        description: 'Cost visibility, budgets and rightsizing across cloud accounts.',
      },
    ],
  },
  {
    name: 'Regulatory Compliance',
    description: 'Meet DORA, NIS2 and the EU Accessibility Act on time.',
    sponsor: 'Sofia Rossi (General Counsel)',
    projects: [
      {
        name: 'DORA Readiness',
        description: 'ICT risk framework, incident reporting and third-party register.',
      },
      {
        name: 'NIS2 Compliance',
        description: 'Risk management measures and reporting to the national CSIRT.',
      },
      { name: 'Accessibility Act Compliance', description: 'WCAG 2.1 AA for the web shop and apps.' },
      { name: 'Records Retention Programme', description: 'Retention schedules and defensible deletion.' },
    ],
  },
  {
    name: 'Workforce & HR Systems',
    description: 'One HR platform from recruiting to payroll.',
    sponsor: 'Amira Haddad (CHRO)',
    projects: [
      {
        name: 'HRIS Implementation',
        description: 'Core HR, org management and self-service on one platform.',
      },
      { name: 'Payroll Consolidation', description: 'One payroll provider for eight countries.' },
      { name: 'Recruiting Suite', description: 'Applicant tracking, career sites and onboarding.' },
      { name: 'Learning Platform', description: 'Catalogue, mandatory training and certifications.' },
      { name: 'Workforce Planning', description: 'Headcount planning linked to the financial plan.' },
    ],
  },
];

/** Workstreams of a project; each project takes two to four of them. */
export const WORKSTREAMS: readonly { name: string; milestones: readonly string[] }[] = [
  {
    name: 'Discovery & Design',
    milestones: ['Current state assessed', 'Requirements signed off', 'Solution design approved'],
  },
  {
    name: 'Vendor Selection',
    milestones: ['RFP issued', 'Vendor shortlist agreed', 'Contract signed'],
  },
  {
    name: 'Build & Configure',
    milestones: ['Development environment ready', 'Sprint 3 demo accepted', 'Build complete'],
  },
  {
    name: 'Integration',
    milestones: ['Interface catalogue agreed', 'Integration tests passed', 'Production interfaces live'],
  },
  {
    name: 'Data Migration',
    milestones: ['Data mapping complete', 'Mock load 2 reconciled', 'Final data load signed off'],
  },
  {
    name: 'Testing & Quality',
    milestones: ['Test strategy approved', 'System test exit', 'User acceptance sign-off'],
  },
  {
    name: 'Change & Training',
    milestones: ['Change impact assessed', 'Trainers certified', 'End-user training delivered'],
  },
  {
    name: 'Cutover & Hypercare',
    milestones: ['Cutover rehearsal passed', 'Go-live', 'Hypercare exit'],
  },
  {
    name: 'Security & Compliance',
    milestones: ['Threat model reviewed', 'Penetration test passed', 'Compliance attestation'],
  },
];

/** Gate milestones of every project and programme. */
export const PROJECT_GATES = ['Business case approved', 'Project closed'] as const;
export const PROGRAMME_GATES = ['Programme mobilised', 'Benefits review'] as const;

export interface RiskTemplate {
  category: 'Schedule' | 'Cost' | 'Scope' | 'Resource' | 'Technical' | 'Vendor' | 'Compliance' | 'Security';
  title: string;
  description: string;
  mitigation: string;
}

export const RISK_TEMPLATES: readonly RiskTemplate[] = [
  {
    category: 'Schedule',
    title: 'Go-live date at risk from late test environment',
    description: 'The shared test environment is booked by two other projects until the end of the quarter.',
    mitigation: 'Provision a dedicated cloud test environment and re-sequence system test cycles.',
  },
  {
    category: 'Schedule',
    title: 'Dependency on a delayed upstream project',
    description: 'Key interfaces depend on deliverables of another project that is running six weeks late.',
    mitigation: 'Agree interim file interfaces and track the dependency weekly in the programme board.',
  },
  {
    category: 'Cost',
    title: 'Licence costs above business case',
    description: 'Vendor price list changes raise subscription costs by about 18% against the business case.',
    mitigation: 'Negotiate a multi-year commitment and reduce premium licences to named power users.',
  },
  {
    category: 'Cost',
    title: 'Contractor day rates increasing',
    description: 'Scarce specialist skills push contractor rates beyond the approved budget.',
    mitigation: 'Move to a fixed-price work package and build internal capability with pairing.',
  },
  {
    category: 'Scope',
    title: 'Uncontrolled scope growth from business requests',
    description: 'Business units keep adding country-specific requirements outside the agreed scope.',
    mitigation: 'Enforce the change control board and park new requests for release 2.',
  },
  {
    category: 'Scope',
    title: 'Unclear ownership of legacy reports',
    description: 'Nobody owns 140 legacy reports, so it is unclear which must be rebuilt.',
    mitigation: 'Run a usage analysis and retire reports without users in the last 12 months.',
  },
  {
    category: 'Resource',
    title: 'Key business experts unavailable during year-end close',
    description:
      'Finance subject-matter experts are fully booked by the year-end close in December and January.',
    mitigation: 'Front-load workshops before November and backfill day-to-day work with temporary staff.',
  },
  {
    category: 'Resource',
    title: 'Single point of knowledge in the integration team',
    description: 'One engineer holds most of the knowledge of the middleware mappings.',
    mitigation: 'Document mappings, pair a second engineer and record walkthroughs.',
  },
  {
    category: 'Technical',
    title: 'Performance of the legacy interface under peak load',
    description: 'Load tests show the legacy interface times out above 300 messages per second.',
    mitigation: 'Introduce a message queue with back-pressure and rerun the load test at 2x peak.',
  },
  {
    category: 'Technical',
    title: 'Data quality of migrated customer records',
    description: 'About 12% of customer records have missing VAT numbers or duplicate addresses.',
    mitigation: 'Run cleansing sprints with data stewards and add validation rules before the final load.',
  },
  {
    category: 'Technical',
    title: 'End-of-support operating system on application servers',
    description:
      'Application servers run an operating system whose extended support ends during the project.',
    mitigation: 'Bring the server upgrade forward and include it in the migration wave.',
  },
  {
    category: 'Vendor',
    title: 'Implementation partner staffing changes',
    description: 'The implementation partner replaced its lead architect twice in three months.',
    mitigation: 'Name key roles in the contract with a replacement notice period and a handover plan.',
  },
  {
    category: 'Vendor',
    title: 'Vendor product roadmap uncertainty',
    description: 'A feature the design relies on moved from the next release to an unspecified later date.',
    mitigation: 'Design a workaround with standard features and escalate through the vendor account manager.',
  },
  {
    category: 'Compliance',
    title: 'Works council approval pending',
    description: 'Employee-facing monitoring features require works council approval in Germany and Austria.',
    mitigation: 'Share the data protection impact assessment early and agree a staged rollout.',
  },
  {
    category: 'Compliance',
    title: 'Data residency requirements for customer data',
    description: 'Some customer contracts require data to stay within the EU, including support access.',
    mitigation: 'Select EU-only regions and confirm the sub-processor list with legal.',
  },
  {
    category: 'Security',
    title: 'Open findings from the penetration test',
    description: 'Two high findings from the penetration test are not yet remediated.',
    mitigation: 'Fix before go-live and retest; accept residual low findings formally.',
  },
  {
    category: 'Security',
    title: 'Shared service accounts in interfaces',
    description: 'Interfaces use shared service accounts with non-expiring passwords.',
    mitigation: 'Move interfaces to managed identities and rotate remaining secrets through the vault.',
  },
];

export interface DocumentTemplate {
  document_type:
    | 'Business Case'
    | 'Project Charter'
    | 'Statement of Work'
    | 'Requirements Specification'
    | 'Status Report'
    | 'Steering Committee Minutes'
    | 'Risk Register'
    | 'Test Plan'
    | 'Change Request';
  title: string;
  extension: 'pdf' | 'docx' | 'xlsx' | 'pptx';
  /** Fields the extraction reads from this kind of document. */
  fields: readonly string[];
}

export const DOCUMENT_TEMPLATES: readonly DocumentTemplate[] = [
  {
    document_type: 'Business Case',
    title: 'Business case',
    extension: 'pdf',
    fields: ['budget', 'payback_months', 'sponsor'],
  },
  {
    document_type: 'Project Charter',
    title: 'Project charter',
    extension: 'docx',
    fields: ['sponsor', 'start_date', 'end_date'],
  },
  {
    document_type: 'Statement of Work',
    title: 'Statement of work',
    extension: 'pdf',
    fields: ['vendor', 'contract_value', 'end_date'],
  },
  {
    document_type: 'Requirements Specification',
    title: 'Requirements specification',
    extension: 'docx',
    fields: ['requirement_count', 'version'],
  },
  {
    document_type: 'Status Report',
    title: 'Monthly status report',
    extension: 'pptx',
    fields: ['reporting_period', 'overall_status', 'percent_complete'],
  },
  {
    document_type: 'Steering Committee Minutes',
    title: 'Steering committee minutes',
    extension: 'docx',
    fields: ['meeting_date', 'decisions', 'actions'],
  },
  {
    document_type: 'Risk Register',
    title: 'Risk register export',
    extension: 'xlsx',
    fields: ['open_risks', 'critical_risks'],
  },
  {
    document_type: 'Test Plan',
    title: 'Test plan',
    extension: 'docx',
    fields: ['test_cycles', 'exit_criteria'],
  },
  {
    document_type: 'Change Request',
    title: 'Change request',
    extension: 'pdf',
    fields: ['change_id', 'cost_impact', 'schedule_impact_days'],
  },
];

export const MIME_TYPES: Record<DocumentTemplate['extension'], string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

export const EXTRACTION_ERRORS = [
  'Scanned PDF without a text layer; OCR confidence below threshold',
  'The file is password-protected',
  'The spreadsheet has no recognisable header row',
  'The document exceeds the 200-page extraction limit',
] as const;

export const PROJECT_MANAGERS = [
  'Anna Schmidt',
  'Lukas Weber',
  'Sophie Dubois',
  'Matteo Bianchi',
  'Eva Novak',
  'Jonas Berg',
  'Clara Fischer',
  'Daniel Kowalski',
  'Lea Martin',
  'Mikael Virtanen',
  'Nora Jensen',
  'Pablo García',
  'Rita Costa',
  'Stefan Horvat',
  'Tessa van Dijk',
  'Yusuf Demir',
  'Zoe Papadopoulos',
  'Emil Lindqvist',
];
