/** The server's Chinese messages: webhooks. */
export const webhooks = {
  loopback: '本机回环',
  private: '内网',
  private2: '内网',
  linkLocal: '链路本地',
  unspecified: '未指定',
  carrierGradeNat: '运营商级 NAT',
  broadcast: '广播',
  multicast: '组播',
  reserved: '保留',
  specialPurpose: '特殊用途',
  webhookNotFound: 'Webhook 不存在',
  webhooksNotSentAddress: '不能发送到{{kindZh}}地址：{{via}}{{address}}',
  hostCouldNotFound: '找不到主机 {{host}}',
} as const;
