/**
 * Static demo content of the learning platform: a corporate academy's catalogue by category, the
 * shape of its courses (chapters and lessons) and its instructors.
 */

export interface CategorySeed {
  category:
    | 'Leadership'
    | 'Data & Analytics'
    | 'Software Development'
    | 'Cloud & DevOps'
    | 'Security'
    | 'Compliance'
    | 'Project Management'
    | 'Sales & Marketing'
    | 'Finance'
    | 'Customer Service'
    | 'Languages'
    | 'Wellbeing';
  tags: readonly string[];
  /** Course subjects; each becomes a course. */
  subjects: readonly string[];
}

export const CATALOGUE: readonly CategorySeed[] = [
  {
    category: 'Leadership',
    tags: ['management', 'people'],
    subjects: [
      'First-Time Manager Essentials',
      'Giving and Receiving Feedback',
      'Leading Hybrid Teams',
      'Coaching Conversations',
      'Delegation That Works',
      'Leading Through Change',
      'Running Effective One-to-Ones',
    ],
  },
  {
    category: 'Data & Analytics',
    tags: ['data', 'analytics'],
    subjects: [
      'SQL for Analysts',
      'Data Visualisation Principles',
      'Python for Data Analysis',
      'Statistics for Decision Makers',
      'Power BI Fundamentals',
      'Data Modelling with dbt',
      'Introduction to Machine Learning',
    ],
  },
  {
    category: 'Software Development',
    tags: ['engineering', 'code'],
    subjects: [
      'TypeScript from Zero',
      'Testing with Jest',
      'REST API Design',
      'Event Sourcing Fundamentals',
      'Git Beyond the Basics',
      'Clean Code Practices',
      'Accessible Web Interfaces',
    ],
  },
  {
    category: 'Cloud & DevOps',
    tags: ['cloud', 'devops'],
    subjects: [
      'Docker Essentials',
      'Kubernetes for Developers',
      'Infrastructure as Code with Terraform',
      'CI/CD Pipelines',
      'Observability with OpenTelemetry',
      'Cloud Cost Management',
      'Site Reliability Engineering',
    ],
  },
  {
    category: 'Security',
    tags: ['security'],
    subjects: [
      'Security Awareness 2026',
      'Phishing Defence',
      'Secure Coding with OWASP Top 10',
      'Identity and Access Management',
      'Threat Modelling Workshop',
      'Incident Handling Basics',
      'Cloud Security Fundamentals',
    ],
  },
  {
    category: 'Compliance',
    tags: ['compliance', 'mandatory'],
    subjects: [
      'GDPR for Everyone',
      'Anti-Bribery and Corruption',
      'Code of Conduct',
      'Anti-Money Laundering Basics',
      'Competition Law Essentials',
      'Export Control Awareness',
      'Health and Safety at Work',
    ],
  },
  {
    category: 'Project Management',
    tags: ['projects', 'agile'],
    subjects: [
      'Project Management Foundations',
      'Scrum in Practice',
      'Kanban for Teams',
      'Risk Management for Projects',
      'Stakeholder Management',
      'Writing a Business Case',
      'Estimating and Planning',
    ],
  },
  {
    category: 'Sales & Marketing',
    tags: ['sales', 'marketing'],
    subjects: [
      'Consultative Selling',
      'Negotiation Skills',
      'CRM Hygiene for Sales Teams',
      'Writing Proposals That Win',
      'Content Marketing Basics',
      'SEO Fundamentals',
      'Account-Based Marketing',
    ],
  },
  {
    category: 'Finance',
    tags: ['finance'],
    subjects: [
      'Finance for Non-Finance Managers',
      'Reading Financial Statements',
      'Budgeting and Forecasting',
      'Understanding SaaS Metrics',
      'Procurement Policy Essentials',
      'Travel and Expense Policy',
      'Cash Flow Management',
    ],
  },
  {
    category: 'Customer Service',
    tags: ['service', 'customers'],
    subjects: [
      'Service Desk Fundamentals',
      'Handling Difficult Customers',
      'Writing Great Support Replies',
      'Knowledge-Centred Service',
      'SLA Management',
      'Customer Empathy Skills',
      'Escalation Management',
    ],
  },
  {
    category: 'Languages',
    tags: ['language'],
    subjects: [
      'Business English B2',
      'German for Beginners A1',
      'French for Business A2',
      'Spanish Conversation A2',
      'Dutch for Newcomers A1',
      'Presenting in English',
      'Business Writing in German',
    ],
  },
  {
    category: 'Wellbeing',
    tags: ['wellbeing'],
    subjects: [
      'Managing Stress',
      'Healthy Remote Working',
      'Time Management',
      'Mindfulness at Work',
      'Resilience Skills',
      'Ergonomics at Your Desk',
      'Sleep and Performance',
    ],
  },
];

/** Chapters of a course in order; lesson titles name the subject with `{subject}`. */
export const CHAPTERS: readonly { title: string; lessons: readonly string[] }[] = [
  {
    title: 'Getting started',
    lessons: [
      'Welcome and course overview',
      'Why {subject} matters',
      'Key terms and ideas',
      'Your starting point',
    ],
  },
  {
    title: 'Core concepts',
    lessons: [
      'The building blocks',
      'A worked example',
      'Common mistakes to avoid',
      'Check your understanding',
    ],
  },
  {
    title: 'In practice',
    lessons: ['Applying {subject} at work', 'Case study', 'Hands-on exercise', 'Tools and templates'],
  },
  {
    title: 'Going further',
    lessons: ['Advanced techniques', 'Expert interview', 'Practice scenario', 'Next steps'],
  },
  {
    title: 'Wrap-up and assessment',
    lessons: ['Summary', 'Final quiz', 'Reflection assignment'],
  },
];

export const INSTRUCTORS = [
  'Dr. Miriam Kessler',
  'Owen Gallagher',
  'Sofia Marchetti',
  'Henrik Dahl',
  'Amélie Roussel',
  'Piotr Zielinski',
  'Carmen Ortega',
  'Jasper Verbeek',
  'Nadia Farouk',
  'Lukas Brenner',
  'Ingrid Solberg',
  'Marco Vitale',
  'Elena Petrova',
  'Ruairí Byrne',
];

export const LEARNER_COMPANIES = [
  'Northwind Group',
  'Northwind Logistics',
  'Northwind Retail',
  'Northwind Digital',
  'Northwind Finance Services',
];

export const LEARNER_TITLES = [
  'Analyst',
  'Software Engineer',
  'Team Lead',
  'Project Manager',
  'Sales Representative',
  'Customer Service Agent',
  'Accountant',
  'HR Generalist',
  'Warehouse Supervisor',
  'Marketing Specialist',
  'Product Owner',
  'Data Engineer',
];
