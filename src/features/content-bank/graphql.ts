import { AppError } from '#src/core/errors.ts';
import type { GraphQLContext } from '#src/lib/graphql/context.ts';
import type { GraphQLPart } from '#src/lib/graphql/part.ts';
import { deleteAsset, listAssets } from './assets.ts';
import { addToCollection, createCollection, deleteCollection, getCollection, listCollections, removeFromCollection, renameCollection, reorderCollection } from './collections.ts';
import { bankIdOf, graphqlDeps, type BankDeps, type BankViewer } from './deps.ts';
import { absoluteUrl } from './export.ts';
import { bankKeyOf, getBankItem } from './items.ts';
import { ensurePickerQuery, searchPicker } from './picker.ts';
import { parseBankQuery, searchBank } from './search.ts';
import { createTag, deleteTag, listTags, tagItem, untagItem } from './tags.ts';
import type { BankCollectionDetail, BankCollectionRow, BankItem, BankItemDetail, BankKey, BankKind } from './types.ts';

/**
 * The content bank on the staff schema (/graphqlAdmin), through the same services as the pages:
 * search (query, filters, cursor), an item with its tags, collections and uses, tags, collections and
 * their order, assets (uploaded with REST: POST /rest/admin/content-bank/assets, multipart), and the
 * picker's search.
 */

type Args = Record<string, unknown>;
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const optionalString = (v: unknown): string | undefined => {
  if (v == null) return undefined;
  if (typeof v !== 'string') throw new AppError('BadRequest.Validation');
  return v;
};
const objectOf = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const kindOf = (v: unknown): BankKind => {
  if (typeof v !== 'string') throw new AppError('ContentBank.NotFound');
  return bankKeyOf(v.toLowerCase(), 1).kind;
};
const refOf = (v: unknown): BankKey => {
  const o = objectOf(v);
  return bankKeyOf(typeof o.kind === 'string' ? o.kind.toLowerCase() : '', o.id);
};

const typeDefs = /* GraphQL */ `
  enum ContentBankKind { ARTICLE ROUNDUP ANSWER IMAGE PDF }
  type ContentBankTag { id: ID!, name: String!, "Items of the library carrying it (null where not counted)." itemCount: Int }
  type ContentBankUse { area: String!, what: String!, label: String!, path: String, at: String! }
  type ContentBankCollectionRef { id: ID!, name: String! }
  type ContentBankFile { contentType: String!, byteSize: Int!, width: Int, height: Int, url: String! }
  "An item of the library. collections, usage and file are read by contentBankItem (null in lists)."
  type ContentBankItem {
    kind: ContentBankKind!
    id: ID!
    title: String!
    summary: String!
    authorId: ID
    authorName: String
    publishedAt: String!
    "Where a reader opens it (absolute), null when it has no address yet."
    url: String
    "Its page for staff in its own area (absolute)."
    staffUrl: String!
    tags: [ContentBankTag!]!
    collections: [ContentBankCollectionRef!]
    usage: [ContentBankUse!]
    file: ContentBankFile
  }
  type ContentBankEdge { cursor: String!, node: ContentBankItem! }
  type ContentBankPageInfo { hasNextPage: Boolean!, endCursor: String }
  "ranked: a search's ranking (title matches, then the text, then near spellings); else newest first."
  type ContentBankSearchPage { edges: [ContentBankEdge!]!, pageInfo: ContentBankPageInfo!, ranked: Boolean! }
  type ContentBankCollectionEntry { kind: ContentBankKind!, id: ID!, position: Int!, "null when the item left the library." item: ContentBankItem }
  "A named, ordered list of items. entries only in contentBankCollection and the mutations (null in the list)."
  type ContentBankCollection { id: ID!, name: String!, description: String!, itemCount: Int!, updatedAt: String!, entries: [ContentBankCollectionEntry!] }
  type ContentBankAsset { id: ID!, kind: ContentBankKind!, title: String!, filename: String!, byteSize: Int!, createdAt: String!, url: String! }
  type ContentBankAssetPage { rows: [ContentBankAsset!]!, nextAfter: ID }
  type ContentBankPick { kind: ContentBankKind!, id: ID!, title: String!, url: String }
  "from and to: days (YYYY-MM-DD, inclusive)."
  input ContentBankFilters { kinds: [ContentBankKind!], authorId: ID, tagIds: [ID!], collectionIds: [ID!], from: String, to: String }
  input ContentBankItemRef { kind: ContentBankKind!, id: ID! }
  extend type Query {
    "The library: a search (query) ranked, or newest first; filters; first (default 25, at most 100) after the previous page's endCursor."
    contentBankSearch(query: String, filters: ContentBankFilters, first: Int, after: String): ContentBankSearchPage!
    "One item with its tags, collections, uses and (an asset) file; 'ContentBank.NotFound' when not in the library."
    contentBankItem(kind: ContentBankKind!, id: ID!): ContentBankItem!
    contentBankTags: [ContentBankTag!]!
    contentBankCollections: [ContentBankCollection!]!
    contentBankCollection(id: ID!): ContentBankCollection!
    "The community's assets, newest first, 50 a page (after: the previous page's nextAfter). Upload: POST /rest/admin/content-bank/assets."
    contentBankAssets(after: ID): ContentBankAssetPage!
    "The picker: up to 10 items readers can open matching query (the newest with none)."
    contentBankPicker(query: String, kinds: [ContentBankKind!]): [ContentBankPick!]!
  }
  extend type Mutation {
    contentBankTagCreate(name: String!): ContentBankTag!
    "Deletes a tag (it leaves every item)."
    contentBankTagDelete(id: ID!): Boolean!
    contentBankTagItem(tagId: ID!, item: ContentBankItemRef!): ContentBankItem!
    contentBankUntagItem(tagId: ID!, item: ContentBankItemRef!): ContentBankItem!
    contentBankCollectionCreate(name: String!, description: String): ContentBankCollection!
    contentBankCollectionRename(id: ID!, name: String!, description: String): ContentBankCollection!
    "Deletes a collection (its items stay in the library)."
    contentBankCollectionDelete(id: ID!): Boolean!
    "Adds an item at the end ('ContentBank.Taken' when it is there already)."
    contentBankCollectionAddItem(id: ID!, item: ContentBankItemRef!): ContentBankCollection!
    contentBankCollectionRemoveItem(id: ID!, item: ContentBankItemRef!): ContentBankCollection!
    "Sets the order: items names each item of the collection once."
    contentBankCollectionReorder(id: ID!, items: [ContentBankItemRef!]): ContentBankCollection!
    "Deletes an asset: its file, tags, places in collections and uses."
    contentBankAssetDelete(id: ID!): Boolean!
  }
`;

function itemOut(deps: BankDeps, item: BankItem | BankItemDetail) {
  const detail = 'usage' in item ? item : null;
  return {
    kind: item.kind.toUpperCase(),
    id: String(item.id),
    title: item.title,
    summary: item.summary,
    authorId: item.authorId ? String(item.authorId) : null,
    authorName: item.authorName,
    publishedAt: iso(item.publishedAt),
    url: absoluteUrl(item.url, deps.publicUrl),
    staffUrl: `${deps.publicUrl}${item.staffPath}`,
    tags: item.tags.map((t) => ({ id: String(t.id), name: t.name, itemCount: null })),
    collections: detail ? detail.collections.map((c) => ({ id: String(c.id), name: c.name })) : null,
    usage: detail ? detail.usage.map((u) => ({ ...u, at: iso(u.at) })) : null,
    file: detail?.asset ? { contentType: detail.asset.contentType, byteSize: detail.asset.byteSize, width: detail.asset.width, height: detail.asset.height, url: `${deps.publicUrl}${detail.asset.fileUrl}` } : null,
  };
}

function collectionOut(deps: BankDeps, c: BankCollectionRow | BankCollectionDetail) {
  return {
    id: String(c.id),
    name: c.name,
    description: c.description,
    itemCount: c.itemCount,
    updatedAt: iso(c.updatedAt),
    entries: 'entries' in c ? c.entries.map((e) => ({ kind: e.kind.toUpperCase(), id: String(e.id), position: e.position, item: e.item ? itemOut(deps, e.item) : null })) : null,
  };
}

const detailOut = async (deps: BankDeps, viewer: BankViewer, key: BankKey) => itemOut(deps, await getBankItem(deps, viewer, key));
const collectionDetail = async (deps: BankDeps, viewer: BankViewer, id: unknown) => collectionOut(deps, await getCollection(deps, viewer, id));

export const contentBankAdminGraphQL: GraphQLPart = {
  typeDefs,
  resolvers: {
    Query: {
      contentBankSearch: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const f = objectOf(args.filters);
        const kinds = f.kinds == null ? [] : Array.isArray(f.kinds) ? f.kinds.map((k) => (typeof k === 'string' ? k.toLowerCase() : k)) : null;
        const query = parseBankQuery({
          q: optionalString(args.query) ?? '',
          kinds: kinds ?? undefined,
          author: f.authorId == null ? '' : str(f.authorId) || '-',
          tagIds: f.tagIds ?? undefined,
          collectionIds: f.collectionIds ?? undefined,
          from: optionalString(f.from) ?? '',
          to: optionalString(f.to) ?? '',
          after: optionalString(args.after) ?? '',
          first: args.first ?? undefined,
        });
        const page = await searchBank(deps, viewer, query);
        return {
          edges: page.rows.map((r) => ({ cursor: r.cursor, node: itemOut(deps, r) })),
          pageInfo: { hasNextPage: page.next !== null, endCursor: page.rows.at(-1)?.cursor ?? null },
          ranked: page.ranked,
        };
      },
      contentBankItem: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        return detailOut(deps, viewer, bankKeyOf(str(args.kind).toLowerCase(), args.id));
      },
      contentBankTags: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        return (await listTags(deps, viewer)).map((t) => ({ id: String(t.id), name: t.name, itemCount: t.itemCount }));
      },
      contentBankCollections: async (_root: unknown, _args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        return (await listCollections(deps, viewer)).map((c) => collectionOut(deps, c));
      },
      contentBankCollection: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        return collectionDetail(deps, viewer, args.id);
      },
      contentBankAssets: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const after = args.after == null ? null : bankIdOf(args.after);
        const { rows, next } = await listAssets(deps, viewer, after);
        return {
          rows: rows.map((r) => ({ id: String(r.id), kind: r.kind.toUpperCase(), title: r.title, filename: r.filename, byteSize: r.byteSize, createdAt: iso(r.createdAt), url: `${deps.publicUrl}${r.fileUrl}` })),
          nextAfter: next ? String(next) : null,
        };
      },
      contentBankPicker: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const kinds = args.kinds == null ? [] : Array.isArray(args.kinds) ? args.kinds.map(kindOf) : [];
        const picker = await searchPicker(deps, viewer, ensurePickerQuery(args.query), kinds);
        if (picker.error) throw new AppError('ContentBank.Invalid', { fields: { query: { code: 'ContentBank.Invalid', key: picker.error, values: { max: 200 } } } });
        return (picker.results ?? []).map((r) => ({ kind: r.kind.toUpperCase(), id: String(r.id), title: r.title, url: r.link }));
      },
    },
    Mutation: {
      contentBankTagCreate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const id = await createTag(deps, viewer, args.name);
        const tag = (await listTags(deps, viewer)).find((t) => t.id === id)!;
        return { id: String(tag.id), name: tag.name, itemCount: tag.itemCount };
      },
      contentBankTagDelete: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await deleteTag(deps, viewer, args.id);
        return true;
      },
      contentBankTagItem: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const key = refOf(args.item);
        await tagItem(deps, viewer, args.tagId, key);
        return detailOut(deps, viewer, key);
      },
      contentBankUntagItem: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const key = refOf(args.item);
        await untagItem(deps, viewer, args.tagId, key);
        return detailOut(deps, viewer, key);
      },
      contentBankCollectionCreate: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        const id = await createCollection(deps, viewer, { name: args.name, description: args.description ?? '' });
        return collectionDetail(deps, viewer, id);
      },
      contentBankCollectionRename: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await renameCollection(deps, viewer, args.id, { name: args.name, description: args.description ?? '' });
        return collectionDetail(deps, viewer, args.id);
      },
      contentBankCollectionDelete: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await deleteCollection(deps, viewer, args.id);
        return true;
      },
      contentBankCollectionAddItem: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await addToCollection(deps, viewer, args.id, refOf(args.item));
        return collectionDetail(deps, viewer, args.id);
      },
      contentBankCollectionRemoveItem: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await removeFromCollection(deps, viewer, args.id, refOf(args.item));
        return collectionDetail(deps, viewer, args.id);
      },
      contentBankCollectionReorder: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        if (!Array.isArray(args.items) || args.items.length > 1000) throw new AppError('BadRequest.Validation');
        await reorderCollection(deps, viewer, args.id, args.items.map(refOf));
        return collectionDetail(deps, viewer, args.id);
      },
      contentBankAssetDelete: async (_root: unknown, args: Args, ctx: GraphQLContext) => {
        const { deps, viewer } = graphqlDeps(ctx);
        await deleteAsset(deps, viewer, args.id);
        return true;
      },
    },
  },
};
