import type { Faker } from '@faker-js/faker';

/**
 * Curated phrases for demo threads and replies: mixed Chinese and English forum talk, with English product names
 * inside unspaced Chinese sentences (as real Chinese forums read), Markdown lists, links, quotes and code. `{x}` in a
 * line stands for one of its topic's terms. Faker's generators cover names only: its Chinese locale has no prose.
 */

export type Lang = 'zh' | 'en';

export interface DemoTopic {
  /** The demo category this topic fills. */
  category: string;
  terms: string[];
  zhTitles: string[];
  enTitles: string[];
  zhLines: string[];
  enLines: string[];
  /** Markdown blocks that may appear in a body (lists, code). */
  blocks?: string[];
}

export interface DemoCategory {
  name: string;
  description: string;
  /** The parent's name, for a sub-category. */
  parent?: string;
  /** Relative share of the threads. */
  weight: number;
}

export const DEMO_CATEGORIES: DemoCategory[] = [
  { name: '技术交流', description: '编程、架构与工具 · Programming, architecture and tools', weight: 1 },
  { name: '前端开发', description: 'React、Vue、CSS 与浏览器 · Front-end', parent: '技术交流', weight: 4 },
  { name: '后端与数据库', description: '服务端、数据库与缓存 · Back-end and databases', parent: '技术交流', weight: 4 },
  { name: '运维部署', description: 'Docker、Nginx、备份与监控 · Ops', parent: '技术交流', weight: 3 },
  { name: '生活杂谈', description: '日常、美食与旅行 · Life', weight: 1 },
  { name: '美食', description: '吃喝玩乐 · Food', parent: '生活杂谈', weight: 3 },
  { name: '旅行', description: '攻略与游记 · Travel', parent: '生活杂谈', weight: 2 },
  { name: 'Gaming 游戏', description: 'Switch, Steam and everything in between', weight: 3 },
  { name: '求助问答', description: '有问题就问 · Ask anything', weight: 3 },
  { name: '站务公告', description: '版规、维护与反馈 · Announcements', weight: 0.3 },
];

const TECH_BLOCKS = [
  '```sql\nexplain query plan\nselect id, title from threads\nwhere category_id = 3\norder by created_at desc\nlimit 20;\n```',
  '```ts\nconst rows = await db\n  .selectFrom("threads")\n  .select(["id", "title"])\n  .orderBy("created_at", "desc")\n  .limit(20)\n  .execute();\n```',
  '```bash\ndocker compose pull\ndocker compose up -d\ndocker compose logs -f --tail=100\n```',
  '```nginx\nlocation / {\n    proxy_pass http://127.0.0.1:3000;\n    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n}\n```',
  '```js\nconsole.time("render");\nconst html = renderToString(<App />);\nconsole.timeEnd("render");\n```',
  '1. 先备份数据库\n2. 停掉旧版本的服务\n3. 升级以后跑一遍迁移\n4. 看日志确认没有报错',
  '- 优点：简单，单机就能跑\n- 缺点：写入是串行的\n- 适合：中小型社区',
  '- Pros: fast reads, one file to back up\n- Cons: one writer at a time\n- Verdict: fine for most forums',
];

export const DEMO_TOPICS: DemoTopic[] = [
  {
    category: '前端开发',
    terms: ['React', 'Vue', 'TypeScript', 'Vite', 'CSS Grid', 'Tailwind', 'Next.js', 'Safari', '小程序', 'Webpack'],
    zhTitles: [
      '{x} 和 {x} 到底该怎么选？',
      '求助：{x} 升级以后页面白屏',
      '分享一个 {x} 的小技巧',
      '移动端适配有什么好的方案吗',
      '用 {x} 重写了公司的后台，说说感受',
      '前端性能优化的一些总结',
      '{x} 的打包体积太大了怎么办',
    ],
    enTitles: [
      'Is {x} still worth learning in 2026?',
      'Hydration mismatch after upgrading {x}',
      'My {x} setup for small projects',
      'How do you structure components in {x}?',
    ],
    zhLines: [
      '最近在折腾{x}，发现官方文档写得不太清楚。',
      '升级到新版本以后首屏渲染慢了一倍，排查了两天才发现是打包配置的问题。',
      '移动端的滚动一直卡顿，换成原生滚动以后好多了。',
      '我们组已经全面切到{x}了，类型检查帮我们挡住了不少低级错误。',
      '组件拆得太细反而不好维护，这是踩坑以后的体会。',
      '在{x}下面服务端渲染和客户端渲染的结果不一致，控制台一直报警告。',
      '图片懒加载加上以后，首页的流量省了一半。',
      '有没有人遇到过{x}在低端安卓机上特别慢的情况？',
      '用户反馈说深色模式下有些文字看不清，需要重新调一下配色。',
      '打包后的体积从两兆降到了六百多K，主要是去掉了没用的依赖。',
    ],
    enLines: [
      'I moved our dashboard to {x} last month and the bundle got noticeably smaller.',
      'Server rendering plus hydration is great until the markup differs by one space.',
      'Lazy loading images cut our home page traffic in half.',
      'Type checking caught a surprising number of bugs before they shipped.',
      'The docs for {x} are good, but the migration guide skips the hard parts.',
    ],
    blocks: TECH_BLOCKS,
  },
  {
    category: '后端与数据库',
    terms: ['SQLite', 'PostgreSQL', 'Redis', 'Node.js', 'Go', 'Kysely', 'MySQL', 'Fastify', 'Rust', 'gRPC'],
    zhTitles: [
      '数据库慢查询排查记录',
      '{x} 和 {x} 性能对比，结果出乎意料',
      '单机 {x} 能扛住多少并发？',
      '缓存和数据库的一致性大家怎么保证',
      '求推荐 {x} 的连接池配置',
      '分页查询越往后越慢怎么办',
      '用 {x} 写了一个论坛，记录一下踩的坑',
    ],
    enTitles: [
      'Why is my {x} query slow on the last pages?',
      'Counting rows in {x} without killing p99',
      'Full-text search for Chinese text in {x}',
      '{x} vs {x} for a small forum',
    ],
    zhLines: [
      '我们的数据库在晚高峰的时候经常锁表，接口直接超时。',
      '加了一层缓存以后接口快了很多，但是数据一致性又成了新问题。',
      '数据库连接池开到多大比较合适？我现在开了二十个。',
      '用{x}做全文搜索，中文分词一直是个麻烦事。',
      '把计数从实时统计改成计数器字段，首页的响应时间降到了十毫秒以内。',
      '分页用偏移量的话越往后越慢，改成按时间戳翻页就好了。',
      '看了执行计划才发现根本没走索引，加了一个联合索引立刻就快了。',
      '缓存命中率只有六成，还得再看看过期策略。',
      '{x}的事务隔离级别默认是什么？文档里没找到。',
      '这种读多写少的场景，数据库放在本机比放在远程快很多。',
      '迁移脚本一定要先在测试库跑一遍，血的教训。',
      '压测的时候发现瓶颈不在数据库，而是在序列化上。',
    ],
    enLines: [
      'EXPLAIN showed a full scan, and one composite index fixed it.',
      'Counting 100k rows on every request is the classic p99 killer.',
      'We keep counters in the row and update them in the same transaction.',
      'The cache hit rate is only sixty percent, so the expiry policy needs work.',
      '{x} handles this workload fine on a single small server.',
      'Keyset pagination beats OFFSET once you get past the first few pages.',
    ],
    blocks: TECH_BLOCKS,
  },
  {
    category: '运维部署',
    terms: ['Docker', 'Nginx', 'Caddy', 'systemd', 'Debian', 'Prometheus', 'Grafana', 'Cloudflare', 'rsync'],
    zhTitles: [
      '2 核 4G 的小机器能跑多少服务',
      '{x} 部署踩坑合集',
      '服务器被扫端口了，怎么加固',
      '大家的备份策略是什么样的',
      '用 {x} 做反向代理，HTTPS 证书自动续期失败',
    ],
    enTitles: [
      'Backups: what do you actually restore-test?',
      'Running {x} on a 2-core VPS',
      'Zero-downtime deploys with {x}',
    ],
    zhLines: [
      '服务器是两核四G的，跑论坛加数据库绰绰有余。',
      '每天凌晨用{x}把数据目录同步到另一台机器，出过一次事以后就再也不敢偷懒了。',
      '证书自动续期失败了，网站直接打不开，用户群里炸了锅。',
      '日志一定要做轮转，不然磁盘迟早被写满。',
      '监控告警配好以后，半夜被叫醒的次数反而少了。',
      '用{x}部署以后升级方便多了，回滚也就一条命令。',
      '数据库备份要定期做恢复演练，不然等于没备份。',
    ],
    enLines: [
      'Log rotation is boring until the disk fills up at 3 a.m.',
      'A backup you have never restored is not a backup.',
      'We put {x} in front of the app and let it handle TLS.',
    ],
    blocks: TECH_BLOCKS,
  },
  {
    category: '美食',
    terms: ['火锅', '红烧肉', '兰州拉面', '手冲咖啡', '烤面包', '酸菜鱼', '小笼包', '螺蛳粉'],
    zhTitles: [
      '周末在家做了{x}，晒一下',
      '有没有好吃的{x}推荐',
      '第一次做{x}就翻车了',
      '分享一个{x}的家常做法',
      '公司楼下新开了一家店，味道一般',
    ],
    enTitles: ['Best {x} you have ever had?', 'First attempt at homemade {x}'],
    zhLines: [
      '周末在家试着做了{x}，味道居然还不错。',
      '火候一定要小，不然外面糊了里面还是生的。',
      '楼下新开的店排队排了一个小时，吃完觉得不值。',
      '老家的做法是先炒糖色再下肉，颜色特别好看。',
      '外卖吃多了还是想念家里的饭菜。',
      '这家的{x}是我吃过最正宗的，强烈推荐。',
    ],
    enLines: [
      'Low heat is the whole secret, honestly.',
      'The queue was an hour long and it was not worth it.',
      'My grandmother would be disappointed, but it tasted fine.',
    ],
  },
  {
    category: '旅行',
    terms: ['成都', '大理', '西安', '厦门', '新疆', '京都', '青海湖', '桂林'],
    zhTitles: ['{x}五日游攻略', '第一次去{x}，求推荐路线', '{x}游记：吃吃喝喝的一周', '国庆去{x}人多吗'],
    enTitles: ['Five days in {x}: what I would do differently', 'Is {x} worth it in winter?'],
    zhLines: [
      '高铁比飞机方便多了，下车就是市区。',
      '在{x}住的民宿老板人特别好，还带我们去吃了本地人才知道的小馆子。',
      '节假日千万别去热门景点，到处都是人。',
      '这次行程安排得太满，下次想慢慢玩。',
      '拍照最好的时间是傍晚，光线特别柔和。',
    ],
    enLines: [
      'Take the train if you can; it drops you right in the city.',
      'Avoid the big sights on public holidays.',
      'Our host in {x} took us to a place only locals know.',
    ],
  },
  {
    category: 'Gaming 游戏',
    terms: ['Switch', 'Steam Deck', '塞尔达', '原神', '艾尔登法环', '星露谷物语', 'PS5', '我的世界'],
    zhTitles: ['{x}通关了，说说感受', '{x}值得入手吗', '求{x}的联机好友', '{x}的存档丢了，还有救吗'],
    enTitles: ['Finally finished {x}', 'Is {x} worth buying now?', 'Looking for co-op partners in {x}'],
    zhLines: [
      '花了八十多个小时终于通关了{x}，结局有点意外。',
      '手柄漂移又犯了，这已经是第二个了。',
      '打折的时候入的，性价比很高。',
      '联机的时候延迟特别高，不知道是不是网络的问题。',
      '剧情一般，但是玩法真的很上头。',
    ],
    enLines: [
      'Eighty hours in and I still have not seen everything in {x}.',
      'The story is fine, the gameplay loop is what keeps me going.',
      'Bought it on sale and do not regret it.',
    ],
  },
  {
    category: '求助问答',
    terms: ['笔记本', '显示器', '路由器', 'NAS', '机械键盘', '耳机', '打印机', 'Wi-Fi'],
    zhTitles: ['预算五千，求推荐{x}', '{x}突然连不上网了', '新手求助：{x}怎么设置', '{x}用了两年出问题了，修还是换'],
    enTitles: ['Which {x} should I buy?', '{x} keeps disconnecting, any ideas?', 'Help: {x} setup for a small office'],
    zhLines: [
      '预算有限，主要是办公和写代码用。',
      '重启了好几次都没用，恢复出厂设置也试过了。',
      '网上的教程都是旧版本的，界面对不上。',
      '售后说要寄回去检测，一来一回要两周。',
      '有没有懂行的朋友帮忙看看是哪里的问题？',
      '{x}的说明书写得太简略了，新手完全看不懂。',
    ],
    enLines: [
      'I have tried restarting it and resetting it to factory settings.',
      'Every tutorial I find is for an older version.',
      'Budget is limited; it is mostly for office work and some coding.',
    ],
  },
  {
    category: '站务公告',
    terms: ['搜索', '夜间模式', '图片上传', '通知', '草稿箱', '手机版'],
    zhTitles: ['【公告】本周六凌晨服务器维护', '【更新】{x}功能上线了', '【版规】发帖前请先阅读', '意见反馈专帖'],
    enTitles: ['Scheduled maintenance this Saturday', 'New: {x} is live', 'Community guidelines'],
    zhLines: [
      '维护期间网站将暂停访问，预计一个小时左右。',
      '新版的{x}支持中文句子中间的关键词了，欢迎大家试用。',
      '请勿发布广告和重复内容，违者删帖处理。',
      '有任何问题或建议都可以在这里留言。',
    ],
    enLines: [
      'The site will be offline for about an hour during maintenance.',
      'Please read the guidelines before posting.',
      'Feedback and bug reports are welcome in this thread.',
    ],
  },
];

const ZH_OPENERS = ['大家好，', '如题，', '先说结论：', '背景是这样的：', '', '', ''];
const ZH_CLOSERS = ['先谢谢大家了！', '欢迎讨论。', '有经验的朋友说说看？', '以上，仅供参考。', ''];
const EN_OPENERS = ['Hi all,', 'Quick question:', 'Long story short:', 'Some context first:', '', ''];
const EN_CLOSERS = ['Thanks in advance!', 'Curious what you think.', 'Happy to share more details.', ''];

const ZH_REPLIES = [
  '感谢分享，收藏了！',
  '同问，我也遇到了一样的问题。',
  '楼主说得很有道理。',
  '学到了，之前一直不知道还能这样。',
  '我的情况和楼主差不多，最后是重装解决的。',
  '可以试试把缓存清一下再看看。',
  '建议先看一下日志，应该能找到原因。',
  '支持一下，写得很详细。',
  '这个问题我去年也踩过，换个版本就好了。',
  '哈哈哈，太真实了。',
  '蹲一个后续。',
  '不太同意，我觉得要看具体场景。',
  '请问后来解决了吗？',
  '顶一下，希望有大佬来解答。',
  '我们公司也是这么做的，效果还不错。',
];

const EN_REPLIES = [
  'Thanks for sharing, bookmarked!',
  'Same problem here, following.',
  'This is exactly what I needed, thank you.',
  'Have you tried clearing the cache first?',
  'Check the logs, the answer is usually there.',
  'Great write-up, very detailed.',
  'I disagree a little: it depends on the workload.',
  'Did you ever solve this?',
  '+1, would love an update.',
  'We do the same at work and it has been fine.',
];

const LINK_TEXTS = ['官方文档', '这篇文章', 'the docs', 'this post', '相关讨论', 'release notes'];

const fill = (f: Faker, line: string, terms: string[]) => line.replace(/\{x\}/g, () => f.helpers.arrayElement(terms));

/** Draws a body's sentences from its topic without repeats (until the topic runs out of lines). */
function sentenceSource(f: Faker, topic: DemoTopic, lang: Lang): (count: number) => string {
  const lines = f.helpers.shuffle(lang === 'zh' ? topic.zhLines : topic.enLines);
  let next = 0;
  return (count) => {
    const out: string[] = [];
    for (let i = 0; i < count; i += 1) out.push(fill(f, lines[next++ % lines.length]!, topic.terms));
    return out.join(lang === 'zh' ? '' : ' ');
  };
}

export function demoTitle(f: Faker, topic: DemoTopic, lang: Lang): string {
  const title = fill(f, f.helpers.arrayElement(lang === 'zh' ? topic.zhTitles : topic.enTitles), topic.terms);
  return title.length > 100 ? title.slice(0, 100) : title;
}

/** A first post: one to four paragraphs, sometimes with a list or code, a quote, a link or a heading. */
export function demoBody(f: Faker, topic: DemoTopic, lang: Lang): string {
  const parts: string[] = [];
  const sentences = sentenceSource(f, topic, lang);
  const opener = f.helpers.arrayElement(lang === 'zh' ? ZH_OPENERS : EN_OPENERS);
  const paragraphs = f.number.int({ min: 1, max: 4 });
  for (let p = 0; p < paragraphs; p += 1) {
    let text = sentences(f.number.int({ min: 1, max: 3 }));
    if (p === 0 && opener) text = `${opener}${lang === 'zh' ? '' : ' '}${text}`;
    if (f.number.int(9) === 0) {
      const term = f.helpers.arrayElement(topic.terms);
      text = `${text}${lang === 'zh' ? '' : ' '}**${term}**${lang === 'zh' ? '是关键。' : ' is the key.'}`;
    }
    parts.push(text);
    if (p === 0 && paragraphs > 2 && f.number.int(3) === 0) {
      parts.push(`## ${lang === 'zh' ? '补充说明' : 'Details'}`);
    }
  }
  if (topic.blocks && f.number.int(3) === 0) parts.splice(1, 0, f.helpers.arrayElement(topic.blocks));
  if (f.number.int(5) === 0) {
    const slug = f.string.alphanumeric({ length: 8, casing: 'lower' });
    parts.push(`[${f.helpers.arrayElement(LINK_TEXTS)}](https://example.com/${slug})`);
  }
  const closer = f.helpers.arrayElement(lang === 'zh' ? ZH_CLOSERS : EN_CLOSERS);
  if (closer) parts.push(closer);
  return parts.join('\n\n');
}

/** A reply or comment: a stock answer or a sentence or two on the topic, sometimes quoting or mentioning someone. */
export function demoReply(f: Faker, topic: DemoTopic, lang: Lang, mention: string | null): string {
  const stock = lang === 'zh' ? ZH_REPLIES : EN_REPLIES;
  const sentences = sentenceSource(f, topic, lang);
  let text = f.number.int(2) === 0 ? f.helpers.arrayElement(stock) : sentences(f.number.int({ min: 1, max: 2 }));
  if (f.number.int(12) === 0) text = `> ${sentences(1)}\n\n${text}`;
  if (mention) text = `@${mention} ${text}`;
  return text;
}
