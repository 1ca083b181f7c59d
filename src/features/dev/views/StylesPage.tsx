import type { ReactNode } from 'react';
import { Alert, Toast } from '#views/kit/alert.tsx';
import { Badge, type Tone } from '#views/kit/badge.tsx';
import { Button, ButtonRow } from '#views/kit/button.tsx';
import { Card } from '#views/kit/card.tsx';
import { Chip, ChipList } from '#views/kit/chip.tsx';
import { Dialog } from '#views/kit/dialog.tsx';
import { EmptyState } from '#views/kit/empty-state.tsx';
import { Field } from '#views/kit/form.tsx';
import { List, ListRow } from '#views/kit/list-row.tsx';
import { FaceStack } from '#views/kit/member-avatar.tsx';
import type { MemberSnapshot } from '#src/features/members/index.ts';
import { Cell, Table } from '#views/kit/table.tsx';
import { Tabs } from '#views/kit/tabs.tsx';
import { useHref, usePage } from '#views/layout/page-context.tsx';

/** The style page's address (development only; src/features/dev/routes.tsx). */
export const STYLES_PATH = '/dev/styles';

/** Sample rows for the table (like the demo's seed: data, not messages). */
type Person = { name: string; email: string; company: string; role: string; joined: string; posts: number; replies: number; spend: string; status: Tone };
const PEOPLE: readonly Person[] = [
  { name: 'Ada Lovelace', email: 'ada@analytical.example', company: 'Analytical Engines', role: 'Founder', joined: 'Jan 4, 2025', posts: 128, replies: 1204, spend: '$12,400.00', status: 'success' },
  { name: 'Grace Hopper', email: 'grace@compilers.example', company: 'Compilers & Co', role: 'CTO', joined: 'Mar 19, 2025', posts: 57, replies: 310, spend: '$4,950.00', status: 'warning' },
  { name: 'Bartholomew Featherstonehaugh-Wolfeschlegelsteinhausen', email: 'bartholomew.featherstonehaugh@a-very-long-company-name.example', company: 'A Company With A Remarkably Long Name Ltd', role: 'Head of Partnerships and Strategic Alliances', joined: 'Nov 2, 2026', posts: 0, replies: 3, spend: '$0.00', status: 'neutral' },
];

/** Sample people for the faces (initials: the page loads no picture). */
const face = (id: number, firstName: string, lastName: string): MemberSnapshot => ({
  id,
  name: `${firstName} ${lastName}`,
  firstName,
  lastName,
  isModerator: false,
  companyName: null,
  avatar: null,
  jobTitle: null,
  location: null,
  isActive: true,
  pronouns: null,
  displayPronouns: false,
  industry: null,
});
const REPLIERS = [face(1, 'Ada', 'Lovelace'), face(2, 'Alan', 'Turing'), face(3, 'Katherine', 'Johnson')];

const STATUS_WORD: Record<string, string> = { success: 'badges.success', warning: 'badges.warning', neutral: 'badges.neutral' };

function Specimen({ id, heading, intro, children }: { id: string; heading: string; intro: string; children: ReactNode }) {
  return (
    <section id={`kit-${id}`} className="styles-specimen" aria-labelledby={`kit-${id}-heading`}>
      <h2 id={`kit-${id}-heading`}>{heading}</h2>
      <p className="muted">{intro}</p>
      {children}
    </section>
  );
}

/**
 * The living style page (issue 30): every component of views/kit in its states. `framed`: the copy
 * shown inside the page's phone-width frame (no frame of its own). Each section's id is `kit-<name>`.
 */
export function StylesPage({ framed = false }: { framed?: boolean }) {
  const { t } = usePage();
  const href = useHref();
  const s = (key: string, values?: Record<string, unknown>) => t(`devStyles.${key}`, values);
  const here = href(STYLES_PATH);
  const columns = (['name', 'email', 'company', 'role', 'joined', 'posts', 'replies', 'spend', 'status', 'actions'] as const).map((key) => ({
    key,
    label: s(`table.col.${key}`),
    numeric: key === 'posts' || key === 'replies' || key === 'spend',
  }));
  const rows = (copy: number) =>
    PEOPLE.map((p) => (
    <tr key={`${copy}:${p.email}`}>
      <td>{p.name}</td>
      <td>{p.email}</td>
      <td>{p.company}</td>
      <td>{p.role}</td>
      <td>{p.joined}</td>
      <Cell numeric>{p.posts}</Cell>
      <Cell numeric>{p.replies}</Cell>
      <Cell numeric>{p.spend}</Cell>
      <td>
        <Badge tone={p.status}>{s(STATUS_WORD[p.status]!)}</Badge>
      </td>
      <td>
        <Button kind="quiet" size="compact" href={`${here}#kit-table`} ariaLabel={s('table.editLabel', { name: p.name })}>
          {s('table.edit')}
        </Button>
      </td>
    </tr>
    ));
  const tones: Tone[] = ['brand', 'strong', 'neutral', 'success', 'warning', 'danger', 'info'];

  return (
    <div className={framed ? 'styles-page styles-page-framed' : 'styles-page'}>
      <h1>{s('heading')}</h1>
      <p className="lead">{s('intro')}</p>

      <Specimen id="button" heading={s('buttons.heading')} intro={s('buttons.intro')}>
        <ButtonRow>
          <Button type="button">{s('buttons.primary')}</Button>
          <Button type="button" kind="secondary">
            {s('buttons.secondary')}
          </Button>
          <Button type="button" kind="quiet">
            {s('buttons.quiet')}
          </Button>
          <Button type="button" kind="danger">
            {s('buttons.danger')}
          </Button>
          <Button href={`${here}#kit-button`} kind="secondary">
            {s('buttons.link')}
          </Button>
        </ButtonRow>
        <ButtonRow>
          <Button type="button" size="compact">
            {s('buttons.primary')}
          </Button>
          <Button type="button" kind="secondary" size="compact">
            {s('buttons.secondary')}
          </Button>
          <Button type="button" kind="quiet" size="compact">
            {s('buttons.quiet')}
          </Button>
          <Button type="button" kind="danger" size="compact">
            {s('buttons.danger')}
          </Button>
        </ButtonRow>
        <ButtonRow>
          <Button type="button" disabled>
            {s('buttons.disabled')}
          </Button>
          <Button type="button" kind="secondary" disabled>
            {s('buttons.disabled')}
          </Button>
          <Button type="button">{s('buttons.long')}</Button>
        </ButtonRow>
      </Specimen>

      <Specimen id="badge" heading={s('badges.heading')} intro={s('badges.intro')}>
        <p className="styles-row">
          {tones.map((tone) => (
            <Badge key={tone} tone={tone}>
              {s(`badges.${tone}`)}
            </Badge>
          ))}
          <Badge tone="neutral">{s('badges.long')}</Badge>
        </p>
      </Specimen>

      <Specimen id="chip" heading={s('chips.heading')} intro={s('chips.intro')}>
        <ChipList label={s('chips.filtersLabel')}>
          <Chip href={`${here}#kit-chip`} current>
            {s('chips.all')}
          </Chip>
          <Chip href={`${here}#kit-chip`}>{s('chips.pricing')}</Chip>
          <Chip href={`${here}#kit-chip`}>{s('chips.hiring')}</Chip>
        </ChipList>
        <ChipList label={s('chips.togglesLabel')}>
          <Chip pressed>{s('chips.like')}</Chip>
          <Chip>{s('chips.insightful')}</Chip>
          <Chip>{s('chips.celebrate')}</Chip>
          <Chip disabled>{s('chips.disabled')}</Chip>
        </ChipList>
      </Specimen>

      <Specimen id="card" heading={s('cards.heading')} intro={s('cards.intro')}>
        <ul className="cards plain">
          <Card as="li" title={s('cards.plainTitle')} level={3}>
            <p>{s('cards.plainText')}</p>
          </Card>
          <Card
            as="li"
            title={s('cards.linkTitle')}
            level={3}
            href={`${here}#kit-card`}
            meta={s('cards.linkMeta')}
            footer={
              <Button href={`${here}#kit-card`} kind="secondary" size="compact">
                {s('cards.open')}
              </Button>
            }
          >
            <p>{s('cards.linkText')}</p>
          </Card>
          <Card as="li" title={s('cards.longTitle')} level={3}>
            <p>{s('cards.longText')}</p>
          </Card>
        </ul>
      </Specimen>

      <Specimen id="list-row" heading={s('list.heading')} intro={s('list.intro')}>
        <List label={s('list.label')}>
          <ListRow
            unread
            href={`${here}#kit-list-row`}
            title={s('list.first')}
            meta={s('list.firstMeta')}
            lead={<Initials text="GH" />}
            trail={
              <>
                <Badge tone="info">{s('list.new', { count: 3 })}</Badge>
                <FaceStack members={REPLIERS} />
                <span>{s('list.replies', { count: 14 })}</span>
              </>
            }
          />
          <ListRow href={`${here}#kit-list-row`} title={s('list.second')} meta={s('list.secondMeta')} lead={<Initials text="AT" />} trail={<span>{s('list.replies', { count: 1 })}</span>} />
          <ListRow href={`${here}#kit-list-row`} title={s('list.third')} meta={s('list.thirdMeta')} lead={<Initials text="KJ" />} trail={<span>{s('list.replies', { count: 0 })}</span>} />
        </List>
      </Specimen>

      <Specimen id="empty-state" heading={s('empty.heading')} intro={s('empty.intro')}>
        <EmptyState
          title={s('empty.title')}
          action={
            <Button href={`${here}#kit-empty-state`} size="compact">
              {s('empty.action')}
            </Button>
          }
        >
          <p>{s('empty.text')}</p>
        </EmptyState>
        <EmptyState title={s('empty.bare')} />
      </Specimen>

      <Specimen id="tabs" heading={s('tabs.heading')} intro={s('tabs.intro')}>
        <Tabs
          label={s('tabs.label')}
          current="overview"
          tabs={(['overview', 'members', 'settings', 'long'] as const).map((key) => ({ key, path: `${STYLES_PATH}?tab=${key}#kit-tabs`, label: s(`tabs.${key}`) }))}
        />
      </Specimen>

      <Specimen id="alert" heading={s('alerts.heading')} intro={s('alerts.intro')}>
        <Toast>{s('alerts.toast')}</Toast>
        <Alert kind="success">{s('alerts.success')}</Alert>
        <Alert kind="info">{s('alerts.info')}</Alert>
        <Alert kind="warning">{s('alerts.warning')}</Alert>
        {/* An error alert is role=alert: announced at once, as a refused form's is. */}
        <Alert kind="error">{s('alerts.error')}</Alert>
      </Specimen>

      <Specimen id="field" heading={s('fields.heading')} intro={s('fields.intro')}>
        <div className="stack">
          <Field id="styles-title" name="title" label={s('fields.label')} hint={s('fields.hint')} defaultValue="" />
          <Field id="styles-title-refused" name="title" label={s('fields.label')} hint={s('fields.hint')} error={s('fields.error')} defaultValue="" />
        </div>
      </Specimen>

      <Specimen id="dialog" heading={s('dialog.heading')} intro={s('dialog.intro')}>
        <Dialog id={framed ? 'styles-dialog-framed' : 'styles-dialog'} title={s('dialog.title')} closeLabel={s('dialog.close')} open>
          <p>{s('dialog.text')}</p>
        </Dialog>
      </Specimen>

      <Specimen id="table" heading={s('table.heading')} intro={s('table.intro')}>
        <Table label={s('table.label')} caption={s('table.caption')} columns={columns}>
          {rows(0)}
        </Table>
        <Table label={s('table.stickyLabel')} columns={columns} sticky>
          {[1, 2, 3, 4].map(rows)}
        </Table>
        <EmptyState title={s('table.none')} />
      </Specimen>

      {framed ? null : (
        <section id="kit-phone" aria-labelledby="kit-phone-heading">
          <h2 id="kit-phone-heading">{s('phone.heading')}</h2>
          <p className="muted">{s('phone.intro')}</p>
          <iframe className="styles-phone" src={`${here}?frame=phone`} title={s('phone.frameTitle')} width={375} height={800} loading="lazy" />
        </section>
      )}
    </div>
  );
}

/** A face's fallback, as the lists draw it (the initials, hidden from screen readers: the name is in the row). */
function Initials({ text }: { text: string }) {
  return (
    <span className="forum-avatar member-initials" aria-hidden="true">
      {text}
    </span>
  );
}
