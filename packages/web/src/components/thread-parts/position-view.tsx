import { openStreetMapLink, type ThreadPosition } from '@luntan/shared';
import { useTranslation } from '../../i18n/use-translation';
import { Icon } from '../ui';
import './position-view.css';

/** A thread's position with a link to its place on OpenStreetMap; `small` in lists. */
export function PositionView({ position, small = false }: { position: ThreadPosition | null; small?: boolean }) {
  const { t } = useTranslation();
  if (!position) return null;
  const place = position.location || position.address;
  return (
    <a
      className={small ? 'lt-position lt-position--small' : 'lt-position'}
      href={openStreetMapLink(position)}
      target="_blank"
      rel="noopener nofollow"
      title={t('threadParts.position.map', { place })}
      data-testid="thread-position"
    >
      <Icon name="position" />
      <span className="lt-position__place">{place}</span>
      {!small && position.address && position.address !== place ? (
        <span className="lt-position__address">{position.address}</span>
      ) : null}
    </a>
  );
}
