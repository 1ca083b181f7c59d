/** Where a post and a reply are (application paths, as notifications store them). */
export const postPath = (postId: number) => `/forum/post/${postId}`;
export const replyPath = (postId: number, replyId: number) => `/forum/post/${postId}#reply-${replyId}`;
