import type { RawDb } from '#src/db/index.ts';

/**
 * The directory's demo (issue 11): Summit grows to about sixty members with varied industries, cities,
 * company sizes and complete company profiles and links, joined over two years (the newest within the
 * last weeks, so Discover has new members to show); the demo members already seeded get their
 * industry and company profile too. Called once from seedDemo, inside its transaction.
 */

type Company = { name: string; industry: string; employees: number; description: string; focus: string };

const INDUSTRY_FOCUS: Record<string, string> = {
  Software: 'Cloud platforms and developer tools',
  Healthcare: 'Patient experience and care delivery',
  Finance: 'Growth-stage investment and advisory',
  Manufacturing: 'Advanced manufacturing and automation',
  Hospitality: 'Boutique hotels and guest experience',
  'Real Estate': 'Commercial and mixed-use development',
  Energy: 'Renewable generation and storage',
  Legal: 'Corporate law and compliance',
  Education: 'Workforce learning and upskilling',
  Retail: 'Direct-to-consumer brands',
  Logistics: 'Freight, warehousing and last-mile delivery',
  Media: 'Brand storytelling and production',
  'Food & Beverage': 'Regional sourcing and specialty foods',
};

const company = (name: string, industry: string, employees: number, what: string): Company => ({
  name,
  industry,
  employees,
  description: `${name} ${what}`,
  focus: INDUSTRY_FOCUS[industry]!,
});

/** The companies of the members already in the demo, by email. */
const EXISTING: Record<string, Company> = {
  'amara.okafor@summit-demo.example.com': company('Lumen Analytics', 'Software', 85, 'turns operational data into plain-language forecasts for mid-sized retailers.'),
  'daniel.reyes@summit-demo.example.com': company('Northfield Logistics', 'Logistics', 420, 'runs regional freight and cross-docking across the Midwest.'),
  'priya.raman@summit-demo.example.com': company('Cobalt Health', 'Healthcare', 260, 'operates outpatient clinics focused on chronic-care management.'),
  'marcus.lindqvist@summit-demo.example.com': company('Fjord Capital Partners', 'Finance', 35, 'invests in founder-led industrial and software businesses.'),
  'sofia.marchetti@summit-demo.example.com': company('Verde Hospitality Group', 'Hospitality', 640, 'owns and operates eight boutique hotels along the Gulf Coast.'),
  'kwame.mensah@summit-demo.example.com': company('Brightline Energy', 'Energy', 180, 'builds community solar and battery storage projects.'),
  'hannah.feldman@summit-demo.example.com': company('Quarry Legal LLP', 'Legal', 48, 'advises growing companies on contracts, financing and compliance.'),
  'ethan.nakamura@summit-demo.example.com': company('Tidewater Robotics', 'Manufacturing', 95, 'designs inspection robots for ports and shipyards.'),
  'isabel.duarte@summit-demo.example.com': company('Alta Vista Realty', 'Real Estate', 70, 'develops and manages mixed-use properties in Southern California.'),
  'jonah.whitaker@summit-demo.example.com': company('Ironbridge Manufacturing', 'Manufacturing', 1250, 'machines precision components for aerospace and rail.'),
  'leila.haddad@summit-demo.example.com': company('Cedar & Stone Design', 'Media', 12, 'creates brand identities and interiors for hospitality clients.'),
  'owen.gallagher@summit-demo.example.com': company('Summit Ridge Advisors', 'Finance', 22, 'provides outsourced CFO services to family businesses.'),
  'mei.chen@summit-demo.example.com': company('Harborlight Software', 'Software', 310, 'makes scheduling software for field-service teams.'),
  'tobias.brandt@summit-demo.example.com': company('Keystone Mobility', 'Logistics', 150, 'runs electric delivery fleets for urban retailers.'),
  'rosa.delgado@harbor-demo.example.com': company('Saltmarsh Foods', 'Food & Beverage', 60, 'sources and packs seafood from New England fishing co-ops.'),
  "liam.osullivan@harbor-demo.example.com": company('Pier Nine Studios', 'Media', 28, 'produces documentary and branded video.'),
  'aisha.bello@harbor-demo.example.com': company('Anchor Pay', 'Finance', 110, 'offers payment processing for independent marinas and harbours.'),
  'noah.fischer@harbor-demo.example.com': company('Lighthouse Learning', 'Education', 40, 'runs coding and trades bootcamps for career changers.'),
  'grace.kim@harbor-demo.example.com': company('Driftwood Apparel', 'Retail', 75, 'designs coastal apparel sold online and in twelve stores.'),
};

type NewMember = { first: string; last: string; title: string; city: string; region: string; company: Company; pronouns?: string; showPronouns?: boolean };

const C = (name: string, industry: string, employees: number, what: string) => company(name, industry, employees, what);

/** The forty-six members Summit gains. */
const NEW_SUMMIT: NewMember[] = [
  { first: 'Adaeze', last: 'Nwosu', title: 'Founder & CEO', city: 'Houston', region: 'TX', company: C('Gridwise Power', 'Energy', 220, 'manages demand response for commercial buildings.'), pronouns: 'she/her', showPronouns: true },
  { first: 'Benjamin', last: 'Hale', title: 'Chief Executive Officer', city: 'Columbus', region: 'OH', company: C('Hale & Sons Foundry', 'Manufacturing', 340, 'casts iron and steel parts for agricultural machinery.') },
  { first: 'Camila', last: 'Ortega', title: 'Managing Partner', city: 'Miami', region: 'FL', company: C('Ortega Law Group', 'Legal', 26, 'represents founders in cross-border transactions.') },
  { first: 'Dmitri', last: 'Volkov', title: 'Chief Technology Officer', city: 'San Francisco', region: 'CA', company: C('Parsec Cloud', 'Software', 140, 'provides managed databases for regulated industries.') },
  { first: 'Elena', last: 'Rossi', title: 'President', city: 'New York', region: 'NY', company: C('Rossi Hospitality', 'Hospitality', 900, 'operates restaurants and event venues in Manhattan.') },
  { first: 'Farid', last: 'Rahimi', title: 'Co-Founder', city: 'Austin', region: 'TX', company: C('Mesa Health Labs', 'Healthcare', 55, 'builds remote-monitoring tools for cardiology practices.') },
  { first: 'Gabriela', last: 'Santos', title: 'Chief Operating Officer', city: 'Phoenix', region: 'AZ', company: C('Desert Bloom Realty', 'Real Estate', 85, 'develops workforce housing in the Southwest.'), pronouns: 'she/her', showPronouns: true },
  { first: 'Henry', last: 'Lawson', title: 'Chief Financial Officer', city: 'Charlotte', region: 'NC', company: C('Piedmont Capital', 'Finance', 60, 'lends to lower middle-market manufacturers.') },
  { first: 'Ines', last: 'Moreau', title: 'Founder', city: 'Chicago', region: 'IL', company: C('Atelier Moreau', 'Retail', 18, 'designs and sells handmade leather goods.') },
  { first: 'Jamal', last: 'Carter', title: 'Chief Executive Officer', city: 'Atlanta', region: 'GA', company: C('Peachtree Freight', 'Logistics', 510, 'moves refrigerated freight across the Southeast.'), pronouns: 'he/him', showPronouns: true },
  { first: 'Keiko', last: 'Tanaka', title: 'VP of Product', city: 'Seattle', region: 'WA', company: C('Evergreen Learning', 'Education', 120, 'builds adaptive maths courses for high schools.') },
  { first: 'Lucas', last: 'Meyer', title: 'Managing Director', city: 'Denver', region: 'CO', company: C('Front Range Ventures', 'Finance', 14, 'backs early-stage climate and outdoor companies.') },
  { first: 'Maya', last: 'Patel', title: 'Chief Executive Officer', city: 'Boston', region: 'MA', company: C('Helix Diagnostics', 'Healthcare', 230, 'develops rapid tests for respiratory infections.') },
  { first: 'Nikolai', last: 'Petrov', title: 'Founder & CEO', city: 'Pittsburgh', region: 'PA', company: C('Steelworks AI', 'Software', 45, 'applies machine vision to quality control on production lines.') },
  { first: 'Olivia', last: 'Bennett', title: 'President', city: 'Nashville', region: 'TN', company: C('Bennett Media House', 'Media', 65, 'produces podcasts and live events for music brands.') },
  { first: 'Pedro', last: 'Alvarez', title: 'Chief Executive Officer', city: 'San Antonio', region: 'TX', company: C('Alamo Builders Supply', 'Retail', 380, 'sells building materials through nine stores.') },
  { first: 'Quinn', last: 'Harper', title: 'Co-Founder & COO', city: 'Portland', region: 'OR', company: C('Cascade Provisions', 'Hospitality', 150, 'runs farm-to-table restaurants and a catering kitchen.'), pronouns: 'they/them', showPronouns: true },
  { first: 'Rachel', last: 'Goldberg', title: 'Managing Partner', city: 'Philadelphia', region: 'PA', company: C('Goldberg Whitman LLP', 'Legal', 90, 'litigates intellectual-property disputes.') },
  { first: 'Samuel', last: 'Okonkwo', title: 'Chief Technology Officer', city: 'Dallas', region: 'TX', company: C('Ledgerline', 'Software', 75, 'automates accounts payable for construction firms.') },
  { first: 'Tara', last: 'Fitzgerald', title: 'Chief Executive Officer', city: 'Minneapolis', region: 'MN', company: C('North Star Logistics', 'Logistics', 1800, 'runs warehouses and fulfilment for national retailers.') },
  { first: 'Umar', last: 'Siddiqui', title: 'Founder', city: 'Detroit', region: 'MI', company: C('Motor City Batteries', 'Energy', 260, 'recycles and refurbishes electric-vehicle batteries.') },
  { first: 'Valentina', last: 'Cruz', title: 'Chief Marketing Officer', city: 'Los Angeles', region: 'CA', company: C('Sunset Studios', 'Media', 210, 'produces commercials and streaming series.') },
  { first: 'William', last: 'Tran', title: 'Chief Executive Officer', city: 'San Jose', region: 'CA', company: C('Quantum Fab', 'Manufacturing', 2400, 'makes precision optics for semiconductor equipment.') },
  { first: 'Ximena', last: 'Flores', title: 'Founder & CEO', city: 'Albuquerque', region: 'NM', company: C('Piñon Clinics', 'Healthcare', 120, 'runs rural primary-care clinics.') },
  { first: 'Yusuf', last: 'Demir', title: 'President', city: 'Chicago', region: 'IL', company: C('Lakeshore Properties', 'Real Estate', 95, 'owns and manages apartment buildings on the North Side.') },
  { first: 'Zoe', last: 'Anderson', title: 'Chief Operating Officer', city: 'Salt Lake City', region: 'UT', company: C('Wasatch Learning', 'Education', 65, 'trains healthcare workers online.') },
  { first: 'Aaron', last: 'Klein', title: 'Chief Executive Officer', city: 'New York', region: 'NY', company: C('Meridian Payments', 'Finance', 450, 'provides payment infrastructure for marketplaces.') },
  { first: 'Bianca', last: 'Ferreira', title: 'VP of Operations', city: 'Orlando', region: 'FL', company: C('Sunshine Resorts', 'Hospitality', 1100, 'operates family resorts near theme parks.') },
  { first: 'Caleb', last: 'Morrison', title: 'Founder', city: 'Raleigh', region: 'NC', company: C('Triangle Code Academy', 'Education', 30, 'teaches software engineering to veterans.') },
  { first: 'Diana', last: 'Novak', title: 'Chief Executive Officer', city: 'Cleveland', region: 'OH', company: C('Novak Precision', 'Manufacturing', 160, 'machines surgical instruments.') },
  { first: 'Emeka', last: 'Obi', title: 'Managing Director', city: 'Houston', region: 'TX', company: C('Bayou Midstream', 'Energy', 700, 'operates pipelines and hydrogen storage.') },
  { first: 'Fiona', last: 'MacLeod', title: 'General Counsel', city: 'Boston', region: 'MA', company: C('Beacon Compliance', 'Legal', 40, 'helps fintech companies meet state licensing rules.') },
  { first: 'George', last: 'Papadopoulos', title: 'Chief Executive Officer', city: 'Tampa', region: 'FL', company: C('Gulf Coast Distributors', 'Logistics', 290, 'distributes food-service supplies across Florida.') },
  { first: 'Hana', last: 'Kobayashi', title: 'Chief Product Officer', city: 'San Francisco', region: 'CA', company: C('Kite Analytics', 'Software', 190, 'builds experimentation tools for mobile apps.'), pronouns: 'she/her', showPronouns: false },
  { first: 'Isaac', last: 'Whitfield', title: 'Founder & CEO', city: 'Kansas City', region: 'MO', company: C('Prairie Goods', 'Retail', 8, 'sells small-batch pantry goods online.') },
  { first: 'Julia', last: 'Lindgren', title: 'President', city: 'Minneapolis', region: 'MN', company: C('Lindgren Health Partners', 'Healthcare', 560, 'runs physical-therapy clinics in the Upper Midwest.') },
  { first: 'Kofi', last: 'Asante', title: 'Chief Executive Officer', city: 'Baltimore', region: 'MD', company: C('Harbor Point Development', 'Real Estate', 45, 'redevelops historic industrial buildings.') },
  { first: 'Laura', last: 'Jensen', title: 'Chief Financial Officer', city: 'Omaha', region: 'NE', company: C('Heartland Mutual', 'Finance', 1300, 'insures family farms and agribusiness.') },
  { first: 'Mateo', last: 'Herrera', title: 'Co-Founder', city: 'Austin', region: 'TX', company: C('Tejas Robotics', 'Manufacturing', 38, 'automates packing lines for food producers.') },
  { first: 'Nadia', last: 'Karimi', title: 'Chief Executive Officer', city: 'Washington', region: 'DC', company: C('Capitol Media Group', 'Media', 75, 'runs policy newsletters and events.') },
  { first: 'Oscar', last: 'Lindberg', title: 'VP of Engineering', city: 'Denver', region: 'CO', company: C('Summit Stack', 'Software', 62, 'makes observability tools for small engineering teams.') },
  { first: 'Paula', last: 'Ng', title: 'Founder', city: 'Honolulu', region: 'HI', company: C('Aloha Table', 'Hospitality', 24, 'runs a restaurant group and cooking school.') },
  { first: 'Raj', last: 'Malhotra', title: 'Chief Executive Officer', city: 'Newark', region: 'NJ', company: C('Garden State Freight', 'Logistics', 230, 'runs drayage from the Port of Newark.') },
  { first: 'Sarah', last: 'OConnell', title: 'Managing Partner', city: 'Chicago', region: 'IL', company: C('Wacker Street Legal', 'Legal', 110, 'advises on real-estate and construction law.') },
  { first: 'Thomas', last: 'Becker', title: 'President & CEO', city: 'Milwaukee', region: 'WI', company: C('Becker Brewing Equipment', 'Manufacturing', 85, 'fabricates stainless brewing systems.') },
  { first: 'Uma', last: 'Krishnan', title: 'Chief Executive Officer', city: 'Austin', region: 'TX', company: C('Bluebonnet Solar', 'Energy', 9, 'installs rooftop solar for small businesses.'), pronouns: 'she/her', showPronouns: true },
];

const slug = (s: string) => s.toLowerCase().normalize('NFD').replace(/[^a-z0-9]+/g, '');
const hyphen = (s: string) => s.toLowerCase().normalize('NFD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function links(first: string, last: string, c: Company, i: number) {
  const person = `${hyphen(first)}-${hyphen(last)}`;
  return {
    link_linkedin: `https://www.linkedin.com/in/${person}`,
    link_twitter: i % 3 === 0 ? `https://twitter.com/${slug(first)}${slug(last)}` : null,
    link_facebook: i % 7 === 2 ? `https://www.facebook.com/${slug(first)}.${slug(last)}` : null,
    link_instagram: i % 5 === 1 ? `https://www.instagram.com/${slug(c.name)}` : null,
    link_crunchbase: i % 4 === 0 ? `https://www.crunchbase.com/organization/${hyphen(c.name)}` : null,
    link_angellist: i % 6 === 3 ? `https://angel.co/company/${hyphen(c.name)}` : null,
    link_website: `https://www.${slug(c.name)}.example.com`,
  };
}

const profileOf = (c: Company) => ({
  industry: c.industry,
  company_name: c.name,
  company_description: c.description,
  company_area_of_focus: c.focus,
  company_employee_count: c.employees,
});

export type DirectorySeedContext = {
  /** Community id by code (the seed's). */
  communities: Record<string, number>;
  /** The demo members' password hash. */
  passwordHash: string;
  /** The seed's "now" (joined dates count back from it). */
  now?: Date;
};

export async function seedDirectory(trx: RawDb, ctx: DirectorySeedContext): Promise<void> {
  const now = ctx.now ?? new Date();
  // The members already seeded: their company profile, industry and links.
  const existing = await trx.selectFrom('users').select(['id', 'email', 'first_name', 'last_name']).where('email', 'in', Object.keys(EXISTING)).execute();
  for (const [i, u] of existing.entries()) {
    const c = EXISTING[u.email]!;
    await trx
      .updateTable('memberships')
      .set({ ...profileOf(c), ...links(u.first_name, u.last_name, c, i), profile_updated_at: now })
      .where('user_id', '=', u.id)
      .execute();
  }

  const summit = ctx.communities.summit;
  if (summit === undefined) return;
  const users = await trx
    .insertInto('users')
    .values(
      NEW_SUMMIT.map((m, i) => ({
        email: `${slug(m.first)}.${slug(m.last)}@summit-demo.example.com`,
        username: `${slug(m.first)}.${slug(m.last)}`,
        password_hash: ctx.passwordHash,
        first_name: m.first,
        last_name: m.last,
        mobile_country_code: 'US',
        mobile_number: '2025551' + String(100 + i).padStart(3, '0'),
      })),
    )
    .returning('id')
    .execute();
  await trx
    .insertInto('memberships')
    .values(
      NEW_SUMMIT.map((m, i) => ({
        community_id: summit,
        user_id: users[i]!.id,
        ...profileOf(m.company),
        ...links(m.first, m.last, m.company, i),
        job_title: m.title,
        location_name: `${m.city}, ${m.region}`,
        location_familiar_name: m.city,
        pronouns: m.pronouns ?? null,
        display_pronouns: Boolean(m.pronouns && m.showPronouns),
        is_founding: i % 7 === 0,
        membership_tier: i % 5 === 0 ? 'Premier' : 'Standard',
        standing: 'Good',
        // Spread over two years: the last of the list joined days ago (Discover's new members).
        joined_at: new Date(now.getTime() - (NEW_SUMMIT.length - 1 - i) * 15 * 86_400_000 - 3 * 86_400_000),
        profile_updated_at: now,
      })),
    )
    .execute();
}
