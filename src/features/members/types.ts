/** Types the members area shares with its views and other areas (types only: no imports of code). */

/** Spec section 3, "Member snapshot": what any member of the community may see of another. */
export type MemberSnapshot = {
  id: number;
  name: string;
  firstName: string;
  lastName: string;
  isModerator: boolean;
  companyName: string | null;
  /** The default-size (200) avatar address, or null: views then show the initials. */
  avatar: string | null;
  jobTitle: string | null;
  location: string | null;
  isActive: boolean;
  /** Always the stored value; views show it only when displayPronouns is true. */
  pronouns: string | null;
  displayPronouns: boolean;
  industry: string | null;
};

/** Spec section 3: the admin view adds these to the snapshot. */
export type MemberAdminView = MemberSnapshot & {
  email: string;
  health: string | null;
  joinedAt: Date;
  communityName: string;
  communityCode: string;
  standing: string | null;
  isFounding: boolean;
  vertical: string | null;
  membershipTier: string | null;
  /** The latest access of any of the member's sessions (recorded at most every few minutes). */
  lastAccessedAt: Date | null;
};

/** Spec section 3, "Settings profile data": the company profile. */
export type CompanyProfile = {
  name: string | null;
  description: string | null;
  areaOfFocus: string | null;
  industry: string | null;
  employeeCount: number | null;
};

export const SOCIAL_NETWORKS = ['linkedin', 'twitter', 'facebook', 'instagram', 'crunchbase', 'angellist', 'website'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];
export type SocialLinks = Record<SocialNetwork, string | null>;

/** The whole profile page: the snapshot, the company, the links. */
export type MemberProfile = MemberSnapshot & {
  company: CompanyProfile;
  links: SocialLinks;
  locationFamiliarName: string | null;
  joinedAt: Date;
  isFounding: boolean;
  profileUpdatedAt: Date | null;
};

/** The directory's company-size filter: buckets of the company's employee count. */
export const COMPANY_SIZES = ['1-10', '11-50', '51-200', '201-1000', '1001+'] as const;
export type CompanySize = (typeof COMPANY_SIZES)[number];

/** Avatar presets of spec section 9 (pixels, square); default 200. */
export const AVATAR_SIZES = { xs: 24, mini: 35, tiny: 80, small: 150, default: 200, medium: 300, large: 450 } as const;
export type AvatarPreset = keyof typeof AVATAR_SIZES;

export type IntroductionStatus = 'PENDING' | 'APPROVED' | 'DECLINED';

/** The industries a member picks from on their own profile (the profiles area; the directory may filter by them). */
export const INDUSTRIES = [
  'Accounting',
  'Advertising & Marketing',
  'Agriculture',
  'Architecture & Design',
  'Biotechnology',
  'Construction',
  'Consulting',
  'Consumer Goods',
  'Education',
  'Energy',
  'Entertainment & Media',
  'Financial Services',
  'Food & Beverage',
  'Government & Nonprofit',
  'Healthcare',
  'Hospitality & Travel',
  'Insurance',
  'Legal',
  'Logistics & Transportation',
  'Manufacturing',
  'Real Estate',
  'Retail & E-commerce',
  'Software & Technology',
  'Telecommunications',
  'Other',
] as const;

/** A published article as a profile lists it. */
export type ProfileArticle = { id: number; title: string; publishedDate: Date | null; articleUrl: string | null };
