import { RedPacketStatus, ThreadPart } from '@luntan/shared';
import type { AppContext } from '../../context.js';
import { invalidField } from '../../core/errors.js';
import { msg } from '../../i18n/index.js';
import { requireUser } from '../../access/viewer.js';
import type { ThreadPartHandler } from '../thread-parts/index.js';
import { checkPayPassword } from '../wallet/index.js';
import { findRedPacketOfThread } from './red-packets.repository.js';
import { createRedPacket, keepRedPacket, presentRedPacket, type RedPacketValue } from './red-packets.service.js';
import {
  assertProviderOffered,
  changePendingRedPacket,
  createPendingRedPacket,
  holdsDraft,
  paysFromWallet,
  removePendingRedPacket,
} from './red-packet-payment.service.js';

/**
 * A red packet (part 106), paid from the author's wallet when the part is created, in the thread's transaction (not
 * enough money: refused, nothing stored), or through a provider: an order of type 9 whose payment publishes the
 * thread, a draft until then (red-packet-payment.service.ts). The wallet's pay password is checked before that
 * transaction, as every payment from the wallet checks it, so that wrong tries count even though the thread is
 * refused. Once paid it cannot be changed or removed; what nobody took goes back to the author after 24 hours.
 */
export function redPacketPart(ctx: AppContext): ThreadPartHandler<typeof ThreadPart.RED_PACKET, RedPacketValue> {
  const cannotChange = () => invalidField('content.indexes.106', msg('threadParts.redPacketCannotChange'));
  return {
    type: ThreadPart.RED_PACKET,
    prepare: async (db, viewer, body, threadId) => {
      const row = threadId === null ? undefined : await findRedPacketOfThread(db, threadId);
      // Paid: kept as it is (update checks that the body is the same).
      if (row && row.status !== RedPacketStatus.PENDING) return;
      if (!paysFromWallet(body)) return assertProviderOffered(ctx);
      await checkPayPassword(db, requireUser(viewer).id, body.payPassword);
    },
    holdsDraft,
    create: (trx, write, body) =>
      paysFromWallet(body)
        ? createRedPacket(ctx, trx, write.thread, write.viewer, body, write.at)
        : createPendingRedPacket(ctx, trx, write.thread, write.viewer, body, write.at),
    update: async (trx, write, body, previous) => {
      const row = await findRedPacketOfThread(trx, write.thread.id);
      if (row?.status === RedPacketStatus.PENDING) return changePendingRedPacket(ctx, trx, write, body, row);
      return keepRedPacket(trx, write.thread.id, body, previous);
    },
    remove: async (trx, write) => {
      const row = await findRedPacketOfThread(trx, write.thread.id);
      if (row?.status !== RedPacketStatus.PENDING) throw cannotChange();
      await removePendingRedPacket(trx, row, write.at);
    },
    present: (db, read) => presentRedPacket(db, read.viewer, read.thread.id),
  };
}
