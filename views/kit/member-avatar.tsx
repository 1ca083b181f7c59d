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

/**
 * A few faces overlapping (who wrote, who replied, who joined): decoration beside words that name
 * them or count them, so hidden from screen readers. Photos or initials, at 28 px.
 */
export function FaceStack({ members, max = 3, className }: { members: readonly MemberSnapshot[]; max?: number; className?: string }) {
  const { basePath } = usePage();
  const shown = members.slice(0, max);
  if (shown.length === 0) return null;
  return (
    <span className={className ? `face-stack ${className}` : 'face-stack'} aria-hidden="true">
      {shown.map((m) => {
        const face = faceOf(m, basePath);
        return 'src' in face ? (
          <img key={m.id} className="face" src={face.src} alt="" width={28} height={28} loading="lazy" decoding="async" />
        ) : (
          <span key={m.id} className="face member-initials">
            {face.initials}
          </span>
        );
      })}
    </span>
  );
}
