import { splitEmoji } from '@luntan/shared';
import { Fragment } from 'react';
import { useEmoji } from './use-emoji';
import './emoji.css';

const HAS_CODE = /:[A-Za-z0-9_+-]{1,50}:/;

/** Plain text (a private message) with its `:code:` emoji shown as the server shows them in posts. */
export function EmojiText({ text }: { text: string }) {
  const hasCode = HAS_CODE.test(text);
  const { lookup } = useEmoji(hasCode);
  if (!hasCode) return <>{text}</>;
  return (
    <>
      {splitEmoji(text, lookup).map((part, i) =>
        typeof part === 'string' ? (
          <Fragment key={i}>{part}</Fragment>
        ) : 'char' in part ? (
          <span key={i} className="lt-emoji-char">
            {part.char}
          </span>
        ) : (
          <img key={i} className="emoji" src={part.url} alt={part.code} />
        ),
      )}
    </>
  );
}
