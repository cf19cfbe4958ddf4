import type { ThreadDetail, ThreadPartType } from '@luntan/shared';
import type { ComponentType } from 'react';
import type { IconName } from '../ui/icon';

/** What a part's editor gets: the body being written (undefined until filled) and where the thread goes. */
export interface PartEditorProps<B = unknown> {
  value: B | undefined;
  onChange: (value: B | undefined) => void;
  categoryId: number;
  /** The thread being edited, 0 for a new one. */
  threadId: number;
}

/** What a part's view gets: the body as thread.detail answered it for this viewer, and the thread. */
export interface PartViewProps<V = unknown> {
  body: V;
  thread: ThreadDetail;
}

/**
 * A part type's face in the web app: its button in the editor, its editor panel and its view on the thread page.
 * `fromView` turns what thread.detail answered back into a body the editor can send again (editing a thread).
 */
export interface ThreadPartUi<B = unknown, V = unknown> {
  type: ThreadPartType;
  /** The i18n key of its name (threadParts.names.<…>). */
  label: string;
  icon: IconName;
  Editor: ComponentType<PartEditorProps<B>>;
  View: ComponentType<PartViewProps<V>>;
  fromView: (view: V) => B;
  /** Whether what the editor holds can be sent (else the editor says what is missing and the thread waits). */
  ready?: (value: B | undefined) => boolean;
}
