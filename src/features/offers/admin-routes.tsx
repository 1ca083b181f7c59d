import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '#src/core/errors.ts';
import { staffAction, type StaffActionForm } from '#src/lib/admin/act.ts';
import { toCsv } from '#src/lib/csv.ts';
import { bankPickerStep, withBankLink, type BankPickerState } from '#src/features/content-bank/index.ts';
import { acceptUploads, uploadTooLarge } from '#src/lib/uploads.ts';
import { checkbox, field, formOf, paramsOf, queryOf } from '#src/lib/form.ts';
import { OfferEdit, OfferNew, OffersAdmin } from '#src/features/offers/views/admin/OffersAdmin.tsx';
import { PartnersAdmin } from '#src/features/offers/views/admin/PartnersAdmin.tsx';
import { offersDeps, offersViewer } from './deps.ts';
import { createPartner, deletePartner, listPartners, LOGO_MAX_BYTES, partnerIdOf, savePartnerLogo, updatePartner } from './partners.ts';
import { offerIdOf } from './offers.ts';
import { blankOfferForm, createOffer, getStaffOffer, listStaffOffers, MOVES, moveOffer, redeemersForExport, updateOffer } from './staff.ts';
import { OFFER_CATEGORIES, type StaffOfferForm } from './types.ts';

type OfferPicker = BankPickerState & { target: 'description' | 'link' };

const DONE = ['created', 'saved', 'published', 'withdrawn', 'partnerCreated', 'partnerSaved', 'logoSaved', 'partnerDeleted'] as const;
type Done = (typeof DONE)[number];

const OfferFormBody = z.object({
  partnerId: field(20),
  title: field(1000),
  valueLine: field(1000),
  description: field(100_000),
  category: field(100),
  tier: field(20),
  redemption: field(20),
  code: field(1000),
  link: field(5000),
  terms: field(20_000),
  startsAt: field(40),
  endsAt: field(40),
  featured: checkbox,
  position: field(20),
  // The content bank's picker (views/kit/bank-picker.tsx): its search, its button, an item picked, where it goes.
  bankQ: field(1000),
  bankSearch: field(10),
  bankPick: field(40),
  bankTarget: z.enum(['description', 'link']).catch('description'),
});
const PartnerBody = z.object({ name: field(1000), website: field(5000), contact: field(5000) });
const MoveBody = z.object({ to: z.enum(['published', 'withdrawn']) });
const ListQuery = z.object({ status: z.enum(['draft', 'published', 'withdrawn']).optional(), after: z.string().regex(/^\d{1,10}$/).optional(), done: z.string().max(40).optional() });
const IdParams = z.object({ id: z.string().max(40) });

type OfferBody = z.infer<typeof OfferFormBody>;
const offerFormOf = ({ bankQ: _q, bankSearch: _s, bankPick: _p, bankTarget: _t, ...form }: OfferBody): StaffOfferForm => form;
const formValues = (f: StaffOfferForm): Record<string, string> => ({ ...f, featured: f.featured ? 'true' : 'false' });

/**
 * The staff's marketplace offers and partners (ADMIN only): /admin/marketplace (the offers, their
 * form, status moves, redemptions by week and the CSV) and /admin/marketplace/partners (details and
 * logo). Plain form POSTs (CSRF by the security plugin), each calling the same services as GraphQL,
 * then a 303 back with a notice; a refused one re-renders its page with the message beside the field
 * and everything typed kept.
 */
/** The notice an action comes back with (`?done=<key>`): only these render; anything else shows none. */
const NoticeQuery = z.object({ done: z.enum(DONE).optional().catch(undefined) }).passthrough();
/** The logo upload's body as the multipart hook leaves it: the file's bytes, or anything else (no file). */
const LogoForm = z.object({ logo: z.instanceof(Buffer).optional().catch(undefined) }).passthrough();

export default async function offersAdminRoutes(app: FastifyInstance) {
  const t = app.t;
  const admin = { config: { access: 'admin' as const } };
  const act = staffAction<Done>(t, ['Offers.BadMove', 'Offers.PartnerInUse', 'Offers.Busy']);
  const call = (request: FastifyRequest) => {
    request.guardian.ensureAdmin();
    return { deps: offersDeps(request), viewer: offersViewer(request) };
  };
  const noticeOf = (request: FastifyRequest) => {
    const { done } = queryOf(NoticeQuery, request);
    return done ? t(`offers.staff.done.${done}`) : undefined;
  };
  const idOf = (request: FastifyRequest) => offerIdOf(paramsOf(IdParams, request, () => new AppError('Offers.NotFound')).id);
  const partnerOf = (request: FastifyRequest) => partnerIdOf(paramsOf(IdParams, request, () => new AppError('Offers.PartnerNotFound')).id);

  // Uploads (a partner's logo): one file, a few small fields, read before the CSRF check runs on them.
  await acceptUploads(app, { maxBytes: LOGO_MAX_BYTES, fields: 4, fieldSize: 1024 });

  // ---- Offers ----

  app.get('/admin/marketplace', admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const q = queryOf(ListQuery, request);
    const after = q.after ? Number(q.after) : null;
    const { rows, next } = await listStaffOffers(deps, viewer, { status: q.status ?? null, after });
    return reply.page({ title: t('offers.staff.title'), body: <OffersAdmin rows={rows} next={next} after={after} status={q.status ?? null} notice={noticeOf(request)} /> });
  });

  const newPage = async (request: FastifyRequest, reply: FastifyReply, values: StaffOfferForm, errors: Record<string, string> = {}, status?: number, picker?: OfferPicker) => {
    const { deps, viewer } = call(request);
    const partners = await listPartners(deps, viewer);
    return reply.page({ title: t('offers.staff.newTitle'), status, body: <OfferNew values={values} errors={errors} partners={partners} categories={OFFER_CATEGORIES} picker={picker} /> });
  };

  /**
   * The content bank's picker on the offer form: a search, or an item picked (its address as the
   * redemption link, or its title and address added to the description). Null: another button.
   */
  const picking = async (request: FastifyRequest, body: OfferBody): Promise<{ values: StaffOfferForm; picker: OfferPicker } | null> => {
    const { deps, viewer } = call(request);
    const step = await bankPickerStep(deps, viewer, body);
    if (!step) return null;
    const form = offerFormOf(body);
    const picked = step.picked;
    const values = !picked ? form : body.bankTarget === 'link' && picked.link ? { ...form, link: picked.link } : { ...form, description: withBankLink(form.description, picked) };
    return { values, picker: { ...step.picker, target: body.bankTarget } };
  };

  app.get('/admin/marketplace/offers/new', admin, async (request, reply) => newPage(request, reply, blankOfferForm()));

  app.post('/admin/marketplace/offers', admin, async (request, reply) => {
    const body = formOf(OfferFormBody, request);
    const picked = await picking(request, body);
    if (picked) return newPage(request, reply, picked.values, {}, 200, picked.picker);
    const form = offerFormOf(body);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      const id = await createOffer(deps, viewer, form);
      return { done: 'created', path: `/admin/marketplace/offers/${id}` };
    }, { key: 'offer', values: formValues(form), render: (f, status) => newPage(request, reply, form, f.errors, status) });
  });

  const editPage = async (request: FastifyRequest, reply: FastifyReply, id: number, form?: StaffActionForm, status?: number, picker?: OfferPicker) => {
    const { deps, viewer } = call(request);
    const [offer, partners] = await Promise.all([getStaffOffer(deps, viewer, id), listPartners(deps, viewer)]);
    return reply.page({
      title: t('offers.staff.editTitle'),
      status,
      body: <OfferEdit offer={offer} form={form} partners={partners} categories={OFFER_CATEGORIES} notice={form ? undefined : noticeOf(request)} moves={MOVES[offer.status]} picker={picker} />,
    });
  };

  app.get('/admin/marketplace/offers/:id', admin, async (request, reply) => editPage(request, reply, idOf(request)));

  app.post('/admin/marketplace/offers/:id', admin, async (request, reply) => {
    const id = idOf(request);
    const body = formOf(OfferFormBody, request);
    const picked = await picking(request, body);
    if (picked) return editPage(request, reply, id, { key: 'offer', values: formValues(picked.values), errors: {} }, 200, picked.picker);
    const form = offerFormOf(body);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await updateOffer(deps, viewer, id, form);
      return { done: 'saved', path: `/admin/marketplace/offers/${id}` };
    }, { key: 'offer', values: formValues(form), render: (f, status) => editPage(request, reply, id, f, status) });
  });

  app.post('/admin/marketplace/offers/:id/status', admin, async (request, reply) => {
    const id = idOf(request);
    const { to } = formOf(MoveBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await moveOffer(deps, viewer, id, to);
      return { done: to, path: `/admin/marketplace/offers/${id}` };
    }, { key: 'status', values: {}, render: (form, status) => editPage(request, reply, id, form, status) });
  });

  app.get('/admin/marketplace/offers/:id/redemptions.csv', admin, async (request, reply) => {
    const { deps, viewer } = call(request);
    const { offer, rows } = await redeemersForExport(deps, viewer, idOf(request));
    const csv = toCsv(
      ['name', 'email', 'company', 'redeemedAt'].map((c) => t(`offers.staff.csv.${c}`)),
      rows.map((r) => [r.name, r.email, r.company, r.at]),
    );
    const code = request.community.code.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="offer-${offer.id}-redemptions-${code}.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  });

  // ---- Partners ----

  const partnersPage = async (request: FastifyRequest, reply: FastifyReply, form?: StaffActionForm, status?: number) => {
    const { deps, viewer } = call(request);
    const partners = await listPartners(deps, viewer);
    return reply.page({ title: t('offers.partners.title'), status, body: <PartnersAdmin partners={partners} form={form} notice={form ? undefined : noticeOf(request)} /> });
  };
  const again = (request: FastifyRequest, reply: FastifyReply, key: string, values: Record<string, string> = {}) => ({ key, values, render: (form: StaffActionForm, status: number) => partnersPage(request, reply, form, status) });

  app.get('/admin/marketplace/partners', admin, async (request, reply) => partnersPage(request, reply));

  app.post('/admin/marketplace/partners', admin, async (request, reply) => {
    const body = formOf(PartnerBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      const id = await createPartner(deps, viewer, body);
      return { done: 'partnerCreated', path: `/admin/marketplace/partners#partner-${id}` };
    }, again(request, reply, 'partner-new', body));
  });

  app.post('/admin/marketplace/partners/:id', admin, async (request, reply) => {
    const id = partnerOf(request);
    const body = formOf(PartnerBody, request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await updatePartner(deps, viewer, id, body);
      return { done: 'partnerSaved', path: `/admin/marketplace/partners#partner-${id}` };
    }, again(request, reply, `partner-${id}`, body));
  });

  app.post('/admin/marketplace/partners/:id/logo', { config: { ...admin.config, rateLimit: { max: 30, timeWindow: '1 minute' } } }, async (request, reply) => {
    const id = partnerOf(request);
    const key = `partner-${id}-logo`;
    const refuse = (k: string, status: number) => partnersPage(request, reply, { key, values: {}, errors: { logo: t(`offers.partners.errors.${k}`, { max: LOGO_MAX_BYTES / 1024 / 1024 }) } }, status);
    if (uploadTooLarge(request)) return refuse('logoTooLarge', 413);
    if (!request.isMultipart()) return refuse('form', 400);
    const { logo: file } = LogoForm.parse(request.body ?? {});
    if (!file || file.length === 0) return refuse('logoMissing', 400);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await savePartnerLogo(deps, viewer, id, file);
      return { done: 'logoSaved', path: `/admin/marketplace/partners#partner-${id}` };
    }, again(request, reply, key));
  });

  app.post('/admin/marketplace/partners/:id/delete', admin, async (request, reply) => {
    const id = partnerOf(request);
    return act(request, reply, async () => {
      const { deps, viewer } = call(request);
      await deletePartner(deps, viewer, id);
      return { done: 'partnerDeleted', path: '/admin/marketplace/partners' };
    }, again(request, reply, `partner-${id}`));
  });
}
