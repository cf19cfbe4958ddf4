import { ThreadPart } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { invalidField } from '../../core/errors.js';
import { msg } from '../../i18n/index.js';
import { requireUser } from '../../access/viewer.js';
import type { ThreadPartHandler } from '../thread-parts/index.js';
import { checkPayPassword } from '../wallet/index.js';
import { findRedPacketOfThread } from './red-packets.repository.js';
import { createRedPacket, keepRedPacket, presentRedPacket, type RedPacketValue } from './red-packets.service.js';

/**
 * A red packet (part 106): paid from the author's wallet when the part is created, in the thread's transaction (not
 * enough money: refused, nothing stored). The wallet's pay password is checked before that transaction, as every
 * payment from the wallet checks it, so that wrong tries count even though the thread is refused. Once paid it cannot
 * be changed or removed; what nobody took goes back to the author after 24 hours.
 */
export function redPacketPart(ctx: AppContext): ThreadPartHandler<typeof ThreadPart.RED_PACKET, RedPacketValue> {
  return {
    type: ThreadPart.RED_PACKET,
    prepare: async (db, viewer, body, threadId) => {
      if (threadId !== null && (await findRedPacketOfThread(db, threadId))) return;
      await checkPayPassword(db, requireUser(viewer).id, body.payPassword);
    },
    create: (trx, write, body) => createRedPacket(ctx, trx, write.thread, write.viewer, body, write.at),
    update: (trx, write, body, previous) => keepRedPacket(trx, write.thread.id, body, previous),
    remove: async () => {
      throw invalidField('content.indexes.106', msg('threadParts.redPacketCannotChange'));
    },
    present: (db, read) => presentRedPacket(db, read.viewer, read.thread.id),
  };
}
