/** The pay-now page's address for a member's subscription (an application path, without the prefix). */
export const payNowPath = (userId: number, subscriptionId: string) =>
  `/pay-now?userId=${encodeURIComponent(String(userId))}&subscriptionId=${encodeURIComponent(subscriptionId)}`;
