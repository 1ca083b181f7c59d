import type { MemberSnapshot } from '#src/features/members/index.ts';
import { usePage } from '#views/layout/page-context.tsx';
import { avatarAt } from './avatar.ts';

/** A member's face as the directory draws it: the photo (the 80 px preset), or the initials. */
export function faceOf(member: MemberSnapshot, basePath: string): { src: string } | { initials: string } {
  if (!member.avatar) return { initials: `${member.firstName.charAt(0)}${member.lastName.charAt(0)}`.toUpperCase() || '?' };
  const path = avatarAt(member.avatar, 80);
  return { src: member.avatar.startsWith('/') ? `${basePath}${path}` : member.avatar };
}

/** The face at 40 px beside a post, a reply or a quoted answer. */
export function MemberAvatar({ member }: { member: MemberSnapshot }) {
  const face = faceOf(member, usePage().basePath);
  if ('src' in face) return <img className="forum-avatar" src={face.src} alt="" width={40} height={40} loading="lazy" decoding="async" />;
  return (
    <span className="forum-avatar member-initials" aria-hidden="true">
      {face.initials}
    </span>
  );
}
