import { POSITION_TEXT_MAX, type Forum, type ThreadPosition, type ThreadPositionInput } from '@luntan/shared';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';
import { Button, Icon, TextInput } from '../ui';
import './thread-parts.css';

/** A thread's position as the posting page holds it: what was typed (coordinates as text). */
export interface PositionDraft {
  location: string;
  address: string;
  latitude: string;
  longitude: string;
}

/** The editor's fields for a thread's position (none: all empty). */
export const positionDraftOf = (p: ThreadPosition | null | undefined): PositionDraft | undefined =>
  p
    ? { location: p.location, address: p.address, latitude: String(p.latitude), longitude: String(p.longitude) }
    : undefined;

const isEmpty = (d: PositionDraft | undefined) =>
  !d || (!d.location.trim() && !d.address.trim() && !d.latitude.trim() && !d.longitude.trim());

/**
 * What thread.create/update get: the position typed (the server checks it), null to remove the one the thread had,
 * or nothing (left as it is). `incomplete` when something but not a place and both coordinates was typed.
 */
export function positionToSend(
  draft: PositionDraft | undefined,
  had: ThreadPosition | null | undefined,
): { position?: ThreadPositionInput | null; incomplete?: true } {
  if (isEmpty(draft)) return had ? { position: null } : {};
  const d = draft!;
  if (!d.location.trim() || !d.latitude.trim() || !d.longitude.trim()) return { incomplete: true };
  return {
    position: {
      location: d.location.trim(),
      latitude: Number(d.latitude),
      longitude: Number(d.longitude),
      ...(d.address.trim() ? { address: d.address.trim() } : {}),
    },
  };
}

const EMPTY: PositionDraft = { location: '', address: '', latitude: '', longitude: '' };
/** Coordinates to 6 decimals (about 10 cm), as typed numbers. */
const degrees = (n: number) => String(Math.round(n * 1e6) / 1e6);

/**
 * The posting page's position fields: a place name, an optional address and its coordinates, typed or taken from
 * the browser (navigator.geolocation, which asks the member first; nothing is asked before the button is pressed).
 */
export function PositionEditor({
  value,
  onChange,
}: {
  value: PositionDraft | undefined;
  onChange: (value: PositionDraft | undefined) => void;
}) {
  const { t } = useTranslation();
  // Closed until asked for (or when the thread has a position): most threads have none.
  const [open, setOpen] = useState(() => !isEmpty(value));
  const [locating, setLocating] = useState(false);
  const [problem, setProblem] = useState('');
  const v = value ?? EMPTY;
  const set = (field: keyof PositionDraft, text: string) => {
    const next = { ...v, [field]: text };
    onChange(isEmpty(next) ? undefined : next);
  };
  const useMine = () => {
    if (typeof navigator === 'undefined' || !('geolocation' in navigator)) {
      setProblem(t('threadParts.position.noGeolocation'));
      return;
    }
    setLocating(true);
    setProblem('');
    navigator.geolocation.getCurrentPosition(
      (found) => {
        setLocating(false);
        onChange({ ...v, latitude: degrees(found.coords.latitude), longitude: degrees(found.coords.longitude) });
      },
      (err) => {
        setLocating(false);
        setProblem(t('threadParts.position.denied', { reason: err.message || String(err.code) }));
      },
      { enableHighAccuracy: false, timeout: 10_000, maximumAge: 60_000 },
    );
  };
  if (!open && isEmpty(value)) {
    return (
      <div className="lt-part-editors__bar">
        <button
          type="button"
          className="lt-part-editors__add"
          aria-expanded={false}
          data-testid="position-open"
          onClick={() => setOpen(true)}
        >
          <Icon name="position" />
          <span>{t('threadParts.position.legend')}</span>
        </button>
      </div>
    );
  }
  return (
    <fieldset className="lt-part-editor lt-position-editor" data-testid="position-editor">
      <legend className="lt-part-editor__legend">
        <Icon name="position" /> {t('threadParts.position.legend')}
      </legend>
      <TextInput
        label={t('threadParts.position.place')}
        name="position-location"
        placeholder={t('threadParts.position.placePlaceholder')}
        maxLength={POSITION_TEXT_MAX}
        value={v.location}
        onChange={(text) => set('location', text)}
      />
      <TextInput
        label={t('threadParts.position.address')}
        name="position-address"
        maxLength={POSITION_TEXT_MAX}
        value={v.address}
        onChange={(text) => set('address', text)}
      />
      <div className="lt-position-editor__coords">
        <TextInput
          label={t('threadParts.position.latitude')}
          name="position-latitude"
          inputMode="decimal"
          placeholder="31.2304"
          value={v.latitude}
          onChange={(text) => set('latitude', text)}
        />
        <TextInput
          label={t('threadParts.position.longitude')}
          name="position-longitude"
          inputMode="decimal"
          placeholder="121.4737"
          value={v.longitude}
          onChange={(text) => set('longitude', text)}
        />
      </div>
      <div className="lt-position-editor__actions">
        <Button onClick={useMine} loading={locating} data-testid="position-locate">
          {locating ? t('threadParts.position.locating') : t('threadParts.position.useMine')}
        </Button>
        {!isEmpty(value) ? (
          <Button
            onClick={() => {
              onChange(undefined);
              setOpen(false);
            }}
            data-testid="position-clear"
          >
            {t('threadParts.position.clear')}
          </Button>
        ) : null}
      </div>
      {problem ? (
        <p className="lt-position-editor__problem" role="alert">
          {problem}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Whether the viewer may give a thread of the category a position (the server checks it too). */
export function mayInsertPosition(forum: Forum | null | undefined, categoryId: number): boolean {
  if (!forum?.user) return false;
  if (forum.user.isAdmin) return true;
  return forum.permissions.some(
    (p) => p === 'thread.insertPosition' || p === `category${categoryId}.thread.insertPosition`,
  );
}
