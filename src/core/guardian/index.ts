import { AppError } from '#src/core/errors.ts';
import type { Identity } from '#src/core/identity.ts';
import type { Community } from '#src/db/types.ts';

/** Who acts on an article: the member, and whether they are staff (ADMIN) of the community. */
export type ArticlePerson = { userId: number; isStaff: boolean };

/** Every route declares one of these in its config (`config: { access }`). */
export type Access = 'public' | 'member' | 'admin';

/**
 * One Guardian per request, built from the identity and the community. Routes, GraphQL resolvers and
 * views ask the same predicates, so a page never offers what the server would refuse.
 */
export class Guardian {
  constructor(
    readonly identity: Identity,
    readonly community: Community,
  ) {}

  get isSignedIn(): boolean {
    return this.identity.loggedIn;
  }

  get isAdmin(): boolean {
    return this.identity.kind === 'ADMIN';
  }

  get isMember(): boolean {
    return this.identity.kind === 'MEMBER' || this.identity.kind === 'ADMIN';
  }

  get userId(): number | null {
    return this.identity.user?.id ?? null;
  }

  /** A signed-in member whose gate is onboarding sees only onboarding (spec section 2). */
  get mustOnboard(): boolean {
    return this.identity.user?.gate === 'onboarding';
  }

  canAccess(access: Access): boolean {
    if (access === 'public') return true;
    if (access === 'member') return this.isMember;
    return this.isAdmin;
  }

  /** The signed-in user as the article predicates (features/articles/guardian.ts) see them; staff is ADMIN here. */
  get articlePerson(): ArticlePerson {
    this.ensureSignedIn();
    return { userId: this.userId!, isStaff: this.isAdmin };
  }

  canSeeForum(): boolean {
    return this.isMember && this.community.forum_enabled;
  }

  ensureSignedIn(): void {
    if (!this.isMember) throw new AppError('NotAuthenticated');
  }

  ensureAdmin(): void {
    if (!this.isSignedIn) throw new AppError('NotAuthenticated');
    if (!this.isAdmin) throw new AppError('Forbidden');
  }

  ensureAccess(access: Access): void {
    if (access === 'member') this.ensureSignedIn();
    if (access === 'admin') this.ensureAdmin();
  }
}
