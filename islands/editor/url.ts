/**
 * The link targets the editors accept (web and mail addresses). A module of its own, without
 * ProseMirror, so that islands which load ProseMirror lazily (the byline) can use it up front.
 */
export const SAFE_URL = /^(https?:|mailto:)/i;
