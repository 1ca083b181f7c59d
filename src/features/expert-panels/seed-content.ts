/**
 * The words of Summit's demo expert panels (issue 15, "Demo data"): two panels, an older closed batch
 * with a published roundup and a newer open batch, with members' answers. Plain data: seed.ts turns it
 * into rows.
 */

export type SeedAnswer = {
  member: string;
  status: 'open' | 'cant_answer' | 'ignored' | 'submitted' | 'accepted' | 'declined';
  /** Paragraphs of the member's text (for submitted, accepted and declined answers). */
  text?: string[];
  /** An editor's light edit of the text (a revision by the admin). */
  edited?: string[];
  note?: string;
  /** An editor has picked it up (review_started_at). */
  reviewing?: boolean;
  /** Its place in the question's published roundup (1..3). */
  roundup?: number;
};

export type SeedQuestion = { title: string; brief: string[]; answers: SeedAnswer[] };

export type SeedPanel = { name: string; topic: string; minWords: number; maxWords: number; members: string[]; guidelines: string[] };

export const GROWTH: SeedPanel = {
  name: 'Growth & Go-to-Market',
  topic: 'Pricing, sales, marketing and channels for growing companies',
  minWords: 80,
  maxWords: 250,
  members: ['amara.okafor', 'priya.raman', 'marcus.lindqvist', 'sofia.marchetti', 'isabel.duarte', 'tobias.brandt', 'leila.haddad'],
  guidelines: [
    'Answer from your own experience as a leader: one clear idea, a concrete example with numbers where you can share them, and a takeaway a peer can act on.',
    'No promotion of your company, products or services, and no links unless they help the reader. Editors may shorten answers or fix grammar before publishing.',
  ],
};

export const LEADERSHIP: SeedPanel = {
  name: 'Leadership & Teams',
  topic: 'Hiring, culture, management and leading people through change',
  minWords: 60,
  maxWords: 300,
  members: ['amara.okafor', 'daniel.reyes', 'kwame.mensah', 'hannah.feldman', 'ethan.nakamura', 'mei.chen', 'owen.gallagher'],
  guidelines: [
    'Write in the first person about something you have done, not what leaders in general should do. Name the situation, what you tried and what happened.',
    'Keep client and employee names out of it. Editors choose the answers that add the most to a roundup; an answer not chosen this time is not a judgement on your expertise.',
  ],
};

export const CLOSED_BATCH = { title: 'October questions: pricing and channels', panel: GROWTH };
export const OPEN_BATCH = { title: 'December questions: leading through change', panel: LEADERSHIP };

export const ROUNDUP = {
  title: 'Pricing moves that paid off: three leaders on what changed their revenue',
  slug: 'pricing-moves-that-paid-off',
  intro: [
    'We asked the Growth & Go-to-Market panel which pricing change had the biggest effect on revenue last year. Three answers stood out: a move to value-based tiers, the end of discount-led renewals, and an annual plan that paid for itself.',
  ],
};

export const CLOSED_QUESTIONS: SeedQuestion[] = [
  {
    title: 'What pricing change had the biggest effect on your revenue last year?',
    brief: [
      'Many members changed their pricing in the past year, from new tiers to usage-based plans. We want to hear about the single change that moved revenue the most, for better or worse.',
      'Tell us what you changed, how customers reacted, and what you would do differently.',
    ],
    answers: [
      {
        member: 'amara.okafor',
        status: 'accepted',
        roundup: 1,
        text: [
          'We moved from a single per-seat price to three tiers built around the outcomes our customers buy: reporting, forecasting, and a planning tier with analyst support. Before the change, our largest accounts paid the same per seat as a ten-person startup, and our sales team spent its time negotiating discounts instead of selling value.',
          'Within two quarters, average contract value rose by 31 percent and discounting fell by half. A handful of small customers left, which we expected. The lesson for me: price the result the customer gets, not the effort it takes you, and give your sales team a story they can tell without apologising for the number.',
        ],
        edited: [
          'We moved from a single per-seat price to three tiers built around the outcomes our customers buy: reporting, forecasting, and planning with analyst support. Before the change, our largest accounts paid the same per seat as a ten-person startup, and our sales team spent its time negotiating discounts instead of selling value.',
          'Within two quarters, average contract value rose 31 percent and discounting fell by half. A handful of small customers left, as we expected. The lesson: price the result the customer gets, not the effort it takes you, and give your sales team a story they can tell without apologising for the number.',
        ],
      },
      {
        member: 'priya.raman',
        status: 'accepted',
        roundup: 2,
        text: [
          'We stopped offering renewal discounts. For years our account managers opened every renewal conversation with a concession, because they feared churn more than anything. We looked at the data and found that customers who received a discount churned at almost the same rate as those who did not.',
          'So we replaced the discount with a renewal review: what the customer achieved with us, what they have not used yet, and a plan for next year. Net revenue retention went from 96 to 108 percent. My advice is to test your fear against your own numbers before you pay for it.',
        ],
      },
      {
        member: 'marcus.lindqvist',
        status: 'accepted',
        roundup: 3,
        text: [
          'Introducing an annual plan with two months free did more for us than any price increase. Our portfolio companies sell to small businesses, where monthly churn is a fact of life, and cash was tight across the board last year.',
          'About 40 percent of new customers chose the annual plan within six months. Churn in that group was a fraction of the monthly group, and the upfront cash funded the sales hires we had postponed. The catch is discipline: treat that cash as a liability until it is earned, and never let it hide a weak month.',
        ],
      },
      {
        member: 'sofia.marchetti',
        status: 'declined',
        note: 'Thank you, Sofia. This roundup focuses on subscription and contract pricing, so your dynamic room pricing story did not fit this time. We would love it for a hospitality question next quarter.',
        text: [
          'In hospitality the biggest change for us was dynamic pricing for our event spaces. We used to publish one rate card per season and let the sales team negotiate. Now prices move with demand, lead time and day of the week, within limits we set each month.',
          'Revenue per available space rose by around 18 percent, and the team stopped spending their afternoons on quotes for dates that were never going to book. The hard part was trust: we showed the team every week why the system priced a date the way it did until they believed it.',
        ],
      },
      { member: 'isabel.duarte', status: 'cant_answer' },
      { member: 'tobias.brandt', status: 'ignored' },
    ],
  },
  {
    title: 'Which marketing channel would you cut first if your budget were halved tomorrow?',
    brief: [
      'Budgets are under pressure going into next year. If you had to cut your marketing spend in half overnight, which channel goes first, and which one do you protect at all costs?',
      'We are looking for honest trade-offs, not a list of everything that works.',
    ],
    answers: [
      {
        member: 'amara.okafor',
        status: 'declined',
        note: 'A thoughtful answer, Amara, and close to the one we chose from Priya. We went with a single view on events to keep the piece focused.',
        text: [
          'Paid social goes first. We have spent real money there for three years, and when we finally traced deals back to their first touch, paid social had started fewer than five percent of our pipeline. It looked busy in dashboards and did very little for revenue.',
          'What I would protect is our customer advisory events. Twice a year we bring twenty customers together to shape our roadmap, and those rooms produce our best case studies, referrals and expansion deals. They are expensive per head and worth every cent.',
        ],
      },
      {
        member: 'priya.raman',
        status: 'accepted',
        text: [
          'Trade show booths would go first. We spend a quarter of our budget on three shows a year, and most of the conversations at the booth are with vendors and students rather than hospital operators who buy from us.',
          'I would keep our small regional dinners for operations leaders. They cost a fraction of a booth, we meet eight to twelve buyers at a time, and the follow-up rate is remarkable because the conversation continues over a meal instead of a badge scan.',
        ],
      },
      {
        member: 'marcus.lindqvist',
        status: 'submitted',
        reviewing: true,
        text: [
          'Sponsored content on industry sites would be my first cut. Across our portfolio it has the weakest link between spend and pipeline, and the audience overlaps heavily with the newsletters we already own and send for free.',
          'I would protect partner marketing. Co-selling with two or three complementary companies brings warm introductions that convert at several times the rate of any paid channel, and it costs mostly time and goodwill. If I could keep only one line in the budget, it would be the salary of the person who runs those partnerships.',
        ],
      },
      { member: 'sofia.marchetti', status: 'ignored' },
      { member: 'leila.haddad', status: 'cant_answer' },
    ],
  },
];

export const OPEN_QUESTIONS: SeedQuestion[] = [
  {
    title: 'How do you keep a hybrid team aligned on priorities when people are rarely in the same room?',
    brief: [
      'Most members now lead teams that split their week between home and office. Alignment that used to happen in the corridor now has to be designed.',
      'Share one practice that keeps your team pulling in the same direction, how you run it, and how you know it is working.',
    ],
    answers: [
      {
        member: 'amara.okafor',
        status: 'submitted',
        text: [
          'Every Monday each team lead writes a short note to the whole company: the three things their team will finish this week, what they need from others, and what they are deliberately not doing. It takes ten minutes to write and five to read.',
          'The "not doing" line turned out to matter most. It surfaces conflicts early, before two teams spend a week on work that cancels out, and it gives people permission to say no. We check it works by asking in our quarterly survey whether people know what the other teams are focused on; the yes rate went from 40 to 85 percent in a year.',
        ],
      },
      {
        member: 'daniel.reyes',
        status: 'submitted',
        reviewing: true,
        text: [
          'We run a thirty-minute operating review every Tuesday with one rule: every number on the screen has an owner in the call. Our logistics teams are spread across four cities, so the review is the one place where everyone sees the same picture of the week.',
          'The owners speak to the exceptions only, never the numbers that are on track. It keeps the meeting short and makes it safe to raise problems early, which is the whole point.',
        ],
      },
      { member: 'mei.chen', status: 'cant_answer' },
    ],
  },
  {
    title: 'What is the one interview question you always ask, and what are you listening for?',
    brief: [
      'Every experienced hiring manager has a question they trust more than the rest. We want to collect the best of them for members who are hiring their first senior leaders.',
      'Tell us the question, why you ask it, and what a strong answer sounds like.',
    ],
    answers: [
      {
        member: 'kwame.mensah',
        status: 'submitted',
        text: [
          'I ask candidates to tell me about a technical decision they made that turned out to be wrong, and what they did in the first week after they realised it. Everyone has made one; the question is whether they can talk about it without blaming someone else.',
          'A strong answer is specific, owns the mistake, and spends most of its time on how they repaired trust and changed their process. A weak one is vague or, worse, about a mistake that was secretly a success.',
        ],
      },
      { member: 'hannah.feldman', status: 'ignored' },
    ],
  },
  {
    title: 'How do you decide whether to promote from within or hire from outside for a senior role?',
    brief: [
      'Promoting a trusted colleague rewards loyalty and keeps knowledge in the company; an outside hire can bring experience the team does not have yet.',
      'How do you make the call, and what did you learn from a time you got it wrong?',
    ],
    answers: [],
  },
];
