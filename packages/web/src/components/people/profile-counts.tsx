import type { UserProfile } from '@luntan/shared';
import { useTranslation } from '../../i18n/use-translation';
import { Link } from 'react-router';

export type CountName = 'threads' | 'likes' | 'follows' | 'fans';

const COUNTS: ReadonlyArray<{ name: CountName; field: keyof UserProfile }> = [
  { name: 'threads', field: 'threadCount' },
  { name: 'likes', field: 'likedCount' },
  { name: 'follows', field: 'followCount' },
  { name: 'fans', field: 'fansCount' },
];

/**
 * Threads, likes received, follows and fans. On a profile page each count may lead to its tab (`hrefOf`); the card
 * shows plain numbers.
 */
export function ProfileCounts({
  profile,
  hrefOf,
}: {
  profile: UserProfile;
  hrefOf?: (name: CountName) => string | null;
}) {
  const { t } = useTranslation();
  return (
    <ul className="lt-profile-counts">
      {COUNTS.map(({ name, field }) => {
        const inner = (
          <>
            <span className="lt-profile-counts__value" data-testid={`count-${name}`}>
              {profile[field] as number}
            </span>
            <span className="lt-profile-counts__name">{t(`people.count.${name}`)}</span>
          </>
        );
        const href = hrefOf?.(name) ?? null;
        return (
          <li key={name}>
            {href ? (
              <Link to={href} className="lt-profile-counts__item lt-profile-counts__item--link">
                {inner}
              </Link>
            ) : (
              <span className="lt-profile-counts__item">{inner}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The signature, or the no-signature text when it is empty. */
export function Signature({ text, className }: { text: string; className?: string }) {
  const { t } = useTranslation();
  return (
    <p
      className={[className ?? 'lt-signature', text ? '' : 'lt-signature--empty'].filter(Boolean).join(' ')}
      data-testid="signature"
    >
      {text || t('people.noSignature')}
    </p>
  );
}
