import type { ThreadItem } from '@luntan/shared';
import { useTranslation } from '../../i18n/use-translation';
import { Icon } from '../ui';
import type { IconName } from '../ui/icon';
import './part-marks.css';

/** Each part type's icon, for the marks in lists (kept apart from the editors so the home page stays light). */
const MARK_ICONS: Readonly<Record<number, IconName>> = {
  101: 'image',
  102: 'audio',
  103: 'video',
  104: 'goods',
  106: 'redPacket',
  107: 'reward',
  108: 'file',
  109: 'vote',
};

/** A list's marks of the parts a thread holds (the family's isRedPack, isReward, isVote and the rest). */
export function ThreadPartMarks({ thread }: { thread: ThreadItem }) {
  const { t } = useTranslation();
  const marks = (thread.parts ?? []).filter((type) => type in MARK_ICONS);
  if (marks.length === 0) return null;
  return (
    <span className="lt-part-marks" data-testid="part-marks">
      {marks.map((type) => (
        <span key={type} className={`lt-part-mark lt-part-mark--${type}`} data-part={type}>
          <Icon name={MARK_ICONS[type]!} title={t(`threadParts.names.${type}` as never)} />
        </span>
      ))}
    </span>
  );
}
