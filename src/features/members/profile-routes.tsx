import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, isAppError, notFound } from '#src/core/errors.ts';
import { z } from 'zod';
import { acceptUploads, uploadTooLarge } from '#src/lib/uploads.ts';
import { checkbox, formOf, id, paramsOf, queryOf, str } from '#src/lib/form.ts';
import { memberBadges } from '#src/features/badges/index.ts';
import { ProfilePage } from '#src/features/members/views/Profile.tsx';
import { ProfileEditPage, type ProfileEditState } from '#src/features/members/views/ProfileEdit.tsx';
import { AVATAR_MAX_BYTES, AVATAR_MAX_PIXELS, AVATAR_MAX_SIDE, AVATAR_PIXELS, readAvatar, removeAvatar, saveAvatar } from './avatars.ts';
import { draftOf, findProfile, PROFILE_LIMITS, publishedArticles, updateProfile, type ProfileDeps, type ProfileDraft } from './profile.ts';
import { introducedPair } from './introductions.ts';
import { INDUSTRIES, SOCIAL_NETWORKS } from './types.ts';

export function profileDeps(request: FastifyRequest): ProfileDeps {
  return { db: request.server.db, clock: request.server.clock, community: request.community };
}

/** What a form shows again: C0 controls (refused anyway) are dropped so that the page stays clean. */
const shown = (v: unknown) => str(v).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * The profile form: each text field as typed, or absent (an absent field is left as it is: the service
 * updates what it is given); the service applies the rules and names the field.
 */
const text = z.string().max(1_048_576).optional();
const ProfileForm = z.object({
  pronouns: text,
  displayPronouns: checkbox,
  jobTitle: text,
  companyName: text,
  location: text,
  industry: text,
  companyDescription: text,
  areaOfFocus: text,
  employeeCount: text,
  ...(Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, text])) as Record<(typeof SOCIAL_NETWORKS)[number], typeof text>),
});
type ProfileBody = z.infer<typeof ProfileForm>;

/** The path's member: an id, or NotFound (the same answer as an unknown member). */
const ProfileParams = z.object({ userId: id });
/** The notice after a redirect: anything else is none. */
const hint = z.string().optional().catch(undefined);
const ProfileQuery = z.object({ saved: hint, avatar: hint });
/** The upload's file, read into memory by the multipart hook; anything else is no file. */
const AvatarForm = z.object({ avatar: z.instanceof(Buffer).optional().catch(undefined) });
/** A stored avatar's address: its key and its size; anything else names no avatar. */
const AvatarParams = z.object({ key: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/), file: z.string().regex(/^\d{1,3}\.webp$/) });

/** The form's fields as typed. */
function draftFromBody(body: ProfileBody): ProfileDraft {
  return {
    pronouns: shown(body.pronouns),
    displayPronouns: body.displayPronouns,
    jobTitle: shown(body.jobTitle),
    companyName: shown(body.companyName),
    location: shown(body.location),
    industry: shown(body.industry),
    companyDescription: shown(body.companyDescription),
    areaOfFocus: shown(body.areaOfFocus),
    employeeCount: shown(body.employeeCount),
    ...(Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, shown(body[n])])) as Record<(typeof SOCIAL_NETWORKS)[number], string>),
  };
}

/**
 * The profiles area: /profile/{userId}, one's own profile at /profile/{userId}/self with its photo,
 * and the stored avatars at /avatars/{key}/{size}.webp.
 */
export default async function profileRoutes(app: FastifyInstance) {
  const t = app.t;
  const member = { config: { access: 'member' as const } };

  // Uploads: one file, a few small fields, read before the CSRF check (which for multipart bodies
  // runs once they are parsed), the file into memory up to the limit.
  await acceptUploads(app, { maxBytes: AVATAR_MAX_BYTES, fields: 4, fieldSize: 1024 });

  /** The signed-in member's id when it is the {userId} of the path; otherwise 404 (see the report: not 403). */
  function ownId(request: FastifyRequest): number {
    const { userId } = paramsOf(ProfileParams, request, notFound);
    if (userId !== request.guardian.userId) throw notFound();
    return userId;
  }

  async function renderEdit(request: FastifyRequest, reply: FastifyReply, userId: number, overrides: Partial<ProfileEditState> = {}, status = 200) {
    const profile = await findProfile(profileDeps(request), userId);
    if (!profile) throw notFound();
    const state: ProfileEditState = {
      profile,
      draft: draftOf(profile),
      errors: {},
      industries: INDUSTRIES,
      limits: { companyDescription: PROFILE_LIMITS.companyDescription, maxUploadMb: AVATAR_MAX_BYTES / 1024 / 1024, maxSide: AVATAR_MAX_SIDE },
      ...overrides,
    };
    return reply.page({ title: t('profile.editTitle'), body: <ProfileEditPage state={state} />, status });
  }

  app.get('/profile/:userId', member, async (request, reply) => {
    const id = paramsOf(ProfileParams, request, notFound).userId;
    const deps = profileDeps(request);
    const viewerId = request.guardian.userId!;
    const [profile, articles, badges, introduced] = await Promise.all([
      findProfile(deps, id),
      publishedArticles(deps, id),
      memberBadges({ ...deps, t }, id),
      introducedPair(deps.db, deps.community, viewerId, id),
    ]);
    if (!profile) throw notFound();
    // Members who were introduced may write to each other (issue 28): the conversations area's page.
    const messageHref = introduced ? `/messages/conversations/with/${id}` : undefined;
    return reply.page({ title: profile.name, body: <ProfilePage profile={profile} articles={articles} badges={badges} isSelf={id === viewerId} messageHref={messageHref} /> });
  });

  app.get('/profile/:userId/self', member, async (request, reply) => {
    const id = ownId(request);
    const q = queryOf(ProfileQuery, request);
    const notice = q.saved === '1' ? t('profile.form.saved') : q.avatar === 'saved' ? t('profile.avatar.saved') : q.avatar === 'removed' ? t('profile.avatar.removed') : undefined;
    return renderEdit(request, reply, id, { notice });
  });

  app.post('/profile/:userId/self', member, async (request, reply) => {
    const id = ownId(request);
    const body = formOf(ProfileForm, request);
    const draft = draftFromBody(body);
    try {
      await updateProfile(profileDeps(request), id, body);
      return reply.redirectTo(`/profile/${id}/self?saved=1`);
    } catch (e) {
      if (!isAppError(e) || !e.fields) throw e;
      // Nothing typed is lost: the form comes back with every value and a message next to each field.
      const errors = Object.fromEntries(Object.entries(e.fields).map(([field, f]) => [field, t(f.key, f.values)]));
      return renderEdit(request, reply, id, { draft, errors }, e.status);
    }
  });

  app.post('/profile/:userId/self/avatar', { config: { ...member.config, rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request, reply) => {
    const id = ownId(request);
    const limits = { mb: AVATAR_MAX_BYTES / 1024 / 1024, side: AVATAR_MAX_SIDE, megapixels: AVATAR_MAX_PIXELS / 1_000_000 };
    const refuse = (key: string, status = 400) => renderEdit(request, reply, id, { avatarError: t(key, limits) }, status);
    if (uploadTooLarge(request)) return refuse('profile.avatar.errors.tooLarge', 413);
    if (!request.isMultipart()) return refuse('profile.avatar.errors.form');
    const file = formOf(AvatarForm, request).avatar;
    if (!file || file.length === 0) return refuse('profile.avatar.errors.missing');
    try {
      await saveAvatar(request.server.db, request.community, id, file);
    } catch (e) {
      const key = isAppError(e) ? e.fields?.avatar?.key : undefined;
      if (!key) throw e;
      return refuse(key);
    }
    return reply.redirectTo(`/profile/${id}/self?avatar=saved`);
  });

  app.post('/profile/:userId/self/avatar/remove', member, async (request, reply) => {
    const id = ownId(request);
    await removeAvatar(request.server.db, request.community, id);
    return reply.redirectTo(`/profile/${id}/self?avatar=removed`);
  });

  // A directory page shows dozens of avatars: they have their own, larger limit per address
  // (ten times the page limit), and never use up the pages'.
  const avatarLimit = { max: 10 * app.config.rateLimitMax, timeWindow: '1 minute' };
  app.get('/avatars/:key/:file', { config: { ...member.config, rateLimit: avatarLimit } }, async (request, reply) => {
    const { key, file } = paramsOf(AvatarParams, request, notFound);
    const size = file.slice(0, -'.webp'.length);
    if (!AVATAR_PIXELS.includes(Number(size))) throw notFound();
    const image = await readAvatar(request.server.db, request.community, key, Number(size));
    if (!image) throw notFound();
    // A key is never reused: a new photo gets a new key, so a stored size never changes.
    return reply.header('content-type', image.content_type).header('cache-control', 'private, max-age=31536000, immutable').send(image.bytes);
  });
}

