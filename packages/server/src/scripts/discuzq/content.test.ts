import { topicKey } from '@luntan/shared';
import { describe, expect, it } from 'vitest';
import { plainText, renderMarkdown } from '../../modules/content/index.js';
import { convertDialogMessage, convertPostContent, type ConvertContext } from './content.js';

const ctx: ConvertContext = {
  imageUrl: (id) => (id === 9 ? '/api/v3/attachments/abcdefghijklmnop.png' : null),
};

const convert = (source: string) => convertPostContent(source, ctx);

/** Renders the converted Markdown as Luntan would, with these members and topics known. */
function render(
  markdown: string,
  users: Record<number, string> = {},
  topics: Record<string, number> = {},
): { html: string; text: string } {
  const linked = new Map(Object.entries(users).map(([id, nickname]) => [Number(id), { id: Number(id), nickname }]));
  const topicMap = new Map(Object.entries(topics).map(([name, id]) => [topicKey(name), { id }]));
  const { html } = renderMarkdown(markdown, new Map(), linked, new Map(), topicMap);
  return { html, text: plainText(html) };
}

/** What the post shows: its text, and that no Markdown syntax became markup. */
function showsAsText(source: string, expected: string): void {
  const { markdown } = convert(source);
  const { html, text } = render(markdown);
  expect(text).toBe(expected);
  expect(html).not.toMatch(/<(h\d|ul|ol|li|blockquote|em|strong|code|pre|a|img|del|s|hr|table)\b/);
}

describe('convertPostContent: the DZQ editor HTML', () => {
  it('converts the README example row: emoji, mention and topic', () => {
    const source =
      '<p>悬赏贴qaq:jingkong: <span id="member" value="4592">@阿古</span> <span id="topic" value="7">#新人报到#</span></p>';
    const out = convert(source);
    expect(out).toEqual({
      markdown: '悬赏贴qaq:jingkong: [@阿古](/user/4592) #新人报到#',
      mentions: [4592],
      topics: [7],
      images: [],
    });
    const { html, text } = render(out.markdown, { 4592: '阿古' }, { 新人报到: 7 });
    expect(html).toContain('<a href="/user/4592" class="mention" data-user-id="4592">@阿古</a>');
    expect(html).toContain('<a class="topic" href="/topic/7">#新人报到#</a>');
    expect(text).toBe('悬赏贴qaq:jingkong: @阿古 #新人报到#');
  });

  it('separates paragraphs by a blank line and turns <br> into a line break', () => {
    const out = convert('<p>一<br>二</p>\n<p>三</p><p><br></p><p>四</p>');
    expect(out.markdown).toBe('一\n二\n\n三\n\n四');
    expect(render(out.markdown).html).toBe('<p>一<br>\n二</p>\n<p>三</p>\n<p>四</p>\n');
  });

  it('escapes text that Markdown would read as syntax, so it shows as written', () => {
    showsAsText('<p># 标题</p>', '# 标题');
    showsAsText('<p>1. 不是列表</p><p>2) 也不是</p>', '1. 不是列表 2) 也不是');
    showsAsText('<p>- a</p><p>+ b</p><p>* c</p><p>> d</p>', '- a + b * c > d');
    showsAsText('<p>x<br>===<br>---<br>***</p>', 'x === --- ***');
    showsAsText(
      '<p>*强调* _下划线_ **粗** `代码` ~~删~~ [链接](e) ![图](a.png) [a]: b</p>',
      '*强调* _下划线_ **粗** `代码` ~~删~~ [链接](e) ![图](a.png) [a]: b',
    );
    showsAsText('<p>a | b<br>--|--<br>1 | 2</p>', 'a | b --|-- 1 | 2');
    showsAsText('<p>&lt;b&gt;粗&lt;/b&gt; &amp;amp; \\ 末尾\\</p>', '<b>粗</b> &amp; \\ 末尾\\');
    showsAsText('<p>    四个空格</p>', '四个空格');
  });

  it('does not turn plain @names and #names# into mentions or topics', () => {
    const { markdown } = convert('<p>@bob 和 #话题# 还有 a@b.com</p>');
    const users = new Map([['bob', { id: 1, username: 'bob' }]]);
    const { html } = renderMarkdown(markdown, users, new Map(), new Map(), new Map([[topicKey('话题'), { id: 3 }]]));
    expect(html).not.toContain('<a');
    expect(plainText(html)).toBe('@bob 和 #话题# 还有 a@b.com');
  });

  it('keeps formatting: bold, italic, strike, inline code, headings, quotes, code blocks, rules', () => {
    const source =
      '<h2>标题 *一*</h2><p><strong>粗</strong> <em>斜</em> <del>删</del> <code>a`b</code> <b>b</b> <i>i</i></p>' +
      '<blockquote><p>引用</p><p>第二段</p></blockquote><pre><code class="language-js">const a = `x`;\n  if (a) {}\n</code></pre><hr><p>完</p>';
    const { markdown } = convert(source);
    const { html } = render(markdown);
    expect(html).toContain('<h2>标题 *一*</h2>');
    expect(html).toContain('<strong>粗</strong> <em>斜</em> <s>删</s> <code>a`b</code> <strong>b</strong> <em>i</em>');
    expect(html).toContain('<blockquote>\n<p>引用</p>\n<p>第二段</p>\n</blockquote>');
    expect(html).toContain('<pre><code class="language-js">const a = `x`;\n  if (a) {}\n</code></pre>');
    expect(html).toContain('<hr>');
  });

  it('keeps emphasis next to Chinese punctuation, and drops emphasis Markdown could not close rather than show stars', () => {
    expect(render(convert('<p>请先阅读<strong>社区规则（一）</strong>的内容</p>').markdown).html).toContain(
      '<strong>社区规则（一）</strong>的',
    );
    expect(convert('<p>a<strong> 空格 </strong>b</p>').markdown).toBe('a **空格** b');
    for (const source of [
      '<p>x<strong>"引号"</strong>y</p>',
      '<p><em>a</em><strong>b</strong></p>',
      '<p><strong> </strong>c</p>',
    ]) {
      const { text } = render(convert(source).markdown);
      expect(text).not.toMatch(/[*~]/);
    }
    expect(render(convert('<p>a<strong>b<em>c</em></strong>d <strong><em>e</em></strong></p>').markdown).html).toBe(
      '<p>a<strong>b<em>c</em></strong>d <em><strong>e</strong></em></p>\n',
    );
    expect(render(convert('<p><strong>a<br><br>b</strong></p>').markdown).html).toBe(
      '<p><strong>a<br>\nb</strong></p>\n',
    );
  });

  it('converts nested lists, and keeps two lists in a row apart', () => {
    const source =
      '<ul><li>一<ul><li>一.一</li><li>一.二<ol><li>甲</li><li>乙</li></ol></li></ul></li><li>二</li></ul>' +
      '<ul><li>另一个列表</li></ul><ol start="3"><li>三</li><li>四<ol start="5"><li>五</li></ol></li></ol><ol><li>新</li></ol>';
    const { markdown } = convert(source);
    const { html } = render(markdown);
    const compact = html.replace(/\n/g, '');
    expect(compact).toBe(
      '<ul><li>一<ul><li>一.一</li><li>一.二<ol><li>甲</li><li>乙</li></ol></li></ul></li><li>二</li></ul>' +
        '<ul><li>另一个列表</li></ul>' +
        // The nested list starting at 5 needs a blank line before it, which makes its parent list a loose one.
        '<ol start="3"><li><p>三</p></li><li><p>四</p><ol start="5"><li>五</li></ol></li></ol><ol><li>新</li></ol>',
    );
  });

  it('keeps http(s) and mailto links; other addresses leave only the text', () => {
    const source =
      '<p><a href="https://e.com/a_b?x=1&amp;y=2">看 *这里*</a> <a href="mailto:a@b.com">邮件</a> <a href="/thread/1">站内</a> ' +
      '<a href="https://e.com/(x)"></a> <a href="https://a.com"><a href="https://b.com">嵌套</a></a></p>';
    const { markdown } = convert(source);
    const { html, text } = render(markdown);
    expect(html).toContain(
      '<a href="https://e.com/a_b?x=1&amp;y=2" target="_blank" rel="nofollow noopener noreferrer ugc">看 *这里*</a>',
    );
    expect(html).toContain('<a href="mailto:a@b.com">邮件</a>');
    expect(html).toContain('<a href="https://e.com/(x)"');
    expect(text).toBe('看 *这里* 邮件 站内 https://e.com/(x) 嵌套');
  });

  it('links bare addresses in text without letting Markdown read their underscores', () => {
    const { markdown } = convert('<p>见 https://e.com/a_b_c/*x*. 结束</p>');
    expect(markdown).toBe('见 <https://e.com/a_b_c/*x*>. 结束');
    expect(render(markdown).text).toBe('见 https://e.com/a_b_c/*x*. 结束');
  });

  it('maps inline attachment pictures through imageUrl, keeps http(s) pictures, drops the rest', () => {
    const source =
      '<p>图 <img src="https://old.site/storage/a.png" alt="attachmentId-9"> ' +
      '<img src="https://old.site/storage/b.png" alt="attachmentId-10"> <img src="https://i.com/c.png" alt="C [1]"> ' +
      '<img src="data:image/png;base64,AAAA"> <img src="/emoji/qq/weixiao.gif" alt=":weixiao:"> <img src="//cdn.com/x.png"></p>';
    const out = convert(source);
    expect(out.images).toEqual([9]);
    expect(out.markdown).toBe(
      '图 ![](/api/v3/attachments/abcdefghijklmnop.png)  ![C \\[1\\]](https://i.com/c.png)  :weixiao:',
    );
    const { html } = render(out.markdown);
    expect(html).toContain('<img src="/api/v3/attachments/abcdefghijklmnop.png" alt loading="lazy">');
    expect(html).toContain('<img src="https://i.com/c.png" alt="C [1]" loading="lazy">');
    expect(html).not.toMatch(/old\.site|data:|cdn\.com/);
  });

  it('keeps a text "!" before a link from turning it into a picture', () => {
    const { markdown } = convert('<p>好!<a href="https://e.com">链接</a></p>');
    expect(render(markdown).html).toContain('好!<a href="https://e.com"');
  });

  it('writes mentions by id with an escaped nickname; without an id, or inside a link, they are text', () => {
    const out = convert(
      '<p><span id="member" value="12">@a*b]c</span> <span id="member" value="x">@bob</span> ' +
        '<a href="https://e.com"><span id="member" value="13">@c</span></a></p>',
    );
    expect(out.mentions).toEqual([12]);
    expect(out.markdown).toBe('[@a\\*b\\]c](/user/12) \\@bob [\\@c](https://e.com)');
    expect(render(out.markdown, { 12: 'a*b]c' }).text).toBe('@a*b]c @bob @c');
  });

  it('writes topics so that Luntan links them; a name Luntan refuses stays text', () => {
    const out = convert(
      '<p>abc<span id="topic" value="1">#话题#</span><span id="topic" value="2">#二#</span> <span id="topic" value="3">#a*b#</span></p>',
    );
    expect(out.topics).toEqual([1, 2, 3]);
    expect(out.markdown).toBe('abc #话题# #二# \\#a\\*b\\#');
    const { html } = render(out.markdown, {}, { 话题: 1, 二: 2 });
    expect(html).toContain(
      '<a class="topic" href="/topic/1">#话题#</a> <a class="topic" href="/topic/2">#二#</a> #a*b#',
    );
  });

  it('lets nothing that could run script through', () => {
    const source =
      '<p><script>alert(1)</script><iframe src="https://e.com">x</iframe><img src="x" onerror="alert(1)">' +
      '<img src="javascript:alert(1)"><a href="javascript:alert(1)">js</a><a href=" JaVaScRiPt:alert(1)">js2</a>' +
      '<a href="java&#x09;script:alert(1)">js3</a><a href="data:text/html,<script>alert(1)</script>">data</a>' +
      '<a href="vbscript:msgbox(1)">vb</a><svg onload="alert(1)"><text>s</text></svg><style>*{}</style>' +
      '<span onclick="alert(1)">点</span>&lt;script&gt;alert(2)&lt;/script&gt;<object data="x"></object></p>';
    const { markdown } = convert(source);
    const { html, text } = render(markdown);
    expect(html).not.toMatch(/<script|<iframe|<svg|<style|<object|\son\w+=|javascript:|vbscript:|data:/i);
    expect(text).toBe('jsjs2js3datavb点<script>alert(2)</script>');
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it('decodes entities', () => {
    const { markdown } = convert('<p>&lt;&gt;&amp;&quot;&#39;&#x4e2d;&#25991;&nbsp;&copy;</p>');
    expect(render(markdown).text).toBe('<>&"\'中文 ©');
  });
});

describe('convertPostContent: s9e XML from v2', () => {
  it('reads <t> plain text with its line breaks and entities', () => {
    const out = convert('<t>第一行 &lt;b&gt; &amp; *星*<br/>\n# 第二行</t>');
    expect(out.markdown).toBe('第一行 \\<b\\> & \\*星\\*\n\\# 第二行');
    expect(render(out.markdown).text).toBe('第一行 <b> & *星* # 第二行');
  });

  it('reads <r> rich text: emoji, mentions, topics, markup markers, links, pictures, lists, quotes', () => {
    const source =
      '<r><p>你好 <E>:smile:</E> <USERMENTION id="3" username="bob">@bob</USERMENTION> ' +
      '<TOPIC id="5" topic="x">#x#</TOPIC> <B><s>[b]</s>粗<e>[/b]</e></B> <I><s>*</s>斜<e>*</e></I> ' +
      '<URL url="https://e.com/?a=1&amp;b=2"><s>[url=https://e.com/?a=1&amp;b=2]</s>链接<e>[/url]</e></URL> ' +
      '<IMG src="https://e.com/a.png"><s>[img]</s>https://e.com/a.png<e>[/img]</e></IMG></p>' +
      '<LIST><LI><s>[*]</s>一</LI><LI><s>[*]</s>二</LI></LIST>' +
      '<QUOTE><i>\n</i><s>[quote]</s><p>引用</p><e>[/quote]</e></QUOTE>' +
      '<CODE lang="php"><s>```php</s><i>\n</i>echo 1;<e>```</e></CODE></r>';
    const out = convert(source);
    expect(out.mentions).toEqual([3]);
    expect(out.topics).toEqual([5]);
    const { html } = render(out.markdown, { 3: 'Bob' }, { x: 5 });
    expect(html).toContain(
      '<p>你好 😄 <a href="/user/3" class="mention" data-user-id="3">@Bob</a> <a class="topic" href="/topic/5">#x#</a> ' +
        '<strong>粗</strong> <em>斜</em> <a href="https://e.com/?a=1&amp;b=2"',
    );
    expect(html).toContain('>链接</a> <img src="https://e.com/a.png" alt loading="lazy"></p>');
    expect(html).toContain('<ul>\n<li>一</li>\n<li>二</li>\n</ul>');
    expect(html).toContain('<blockquote>\n<p>引用</p>\n</blockquote>');
    expect(html).toContain('<pre><code class="language-php">echo 1;\n</code></pre>');
    expect(html).not.toMatch(/\[b\]|\[url|\[img\]|\[\*\]|\[quote\]|```/);
  });

  it('treats a body that only looks like XML as HTML', () => {
    expect(convert('<p>a</p><t>b</t>').markdown).toBe('a\n\nb');
  });
});

describe('convertPostContent: plain text', () => {
  it('keeps the text, escaped, with its lines and paragraphs', () => {
    const out = convert('# 不是标题\n> 不是引用\n1. 不是列表 &amp; `x` a_b_c\n\n第二段 :weixiao: @bob');
    expect(out.markdown).toBe(
      '\\# 不是标题\n\\> 不是引用\n1\\. 不是列表 & \\`x\\` a\\_b\\_c\n\n第二段 :weixiao: \\@bob',
    );
    expect(render(out.markdown).html).toBe(
      '<p># 不是标题<br>\n&gt; 不是引用<br>\n1. 不是列表 &amp; `x` a_b_c</p>\n<p>第二段 :weixiao: @bob</p>\n',
    );
  });

  it('reads a < that opens no known tag as text', () => {
    const { markdown } = convert('a <b and 1 < 2 && 3 > 2 <3 &lt;');
    expect(render(markdown).text).toBe('a <b and 1 < 2 && 3 > 2 <3 <');
    expect(convertDialogMessage('a <b c', ctx).markdown).toBe('a <b c');
  });

  it('gives nothing for an empty body', () => {
    expect(convert('').markdown).toBe('');
    expect(convert('<p> </p><p><br></p>').markdown).toBe('');
  });
});

describe('convertDialogMessage', () => {
  it('reads the JSON (escaped slashes) and gives plain text', () => {
    const json = JSON.stringify({
      message_text:
        '<p>你好 <span id="member" value="2">@小明</span> :weixiao: *不是强调*</p><p>第二行<br>第三行 <a href="https://e.com">链接</a></p>',
      image_url: 'https://old.site/storage/x.png',
    }).replace(/\//g, '\\/');
    expect(convertDialogMessage(json, ctx)).toEqual({
      markdown: '你好 @小明 :weixiao: *不是强调*\n第二行\n第三行 链接 (https://e.com)',
      imageUrl: 'https://old.site/storage/x.png',
    });
  });

  it('reads JSON escaped once more (addslashes), s9e XML inside, and raw text', () => {
    const slashed = '{\\"message_text\\":\\"<r>hi <E>:smile:</E> &lt;3</r>\\",\\"image_url\\":\\"javascript:x\\"}';
    expect(convertDialogMessage(slashed, ctx)).toEqual({ markdown: 'hi :smile: <3', imageUrl: '' });
    expect(convertDialogMessage('就是文字 &amp; <3', ctx)).toEqual({ markdown: '就是文字 & <3', imageUrl: '' });
    expect(convertDialogMessage('<p><script>x</script>安全</p>', ctx).markdown).toBe('安全');
  });
});

describe('speed', () => {
  it('converts 10,000 typical posts well under 10 seconds', () => {
    const posts = [
      '<p>悬赏贴qaq:jingkong: <span id="member" value="4592">@阿古</span> <span id="topic" value="7">#新人报到#</span></p>',
      '<p>今天天气不错，大家好！</p><p>第二段 <strong>重点</strong> 和 <a href="https://e.com/x">链接</a><br>下一行</p>',
      '<p>图片：<img src="https://old/x.png" alt="attachmentId-9"></p><ul><li>一</li><li>二</li></ul>',
      '<r><p>旧帖 <E>:smile:</E> <USERMENTION id="3" username="bob">@bob</USERMENTION></p></r>',
      '<t>纯文本帖子，第一行<br/>\n第二行</t>',
    ];
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) convert(posts[i % posts.length]! + `<p>${i}</p>`);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(5_000);
  });
});
