import { GOODS_TITLE_MAX, type GoodsPart } from '@luntan/shared';
import { useTranslation } from '../../i18n/use-translation';
import { TextInput } from '../ui';
import type { PartEditorProps, PartViewProps, ThreadPartUi } from './registry';

/** The goods card as the editor holds it (the body of part 104: strings as typed; the server checks them). */
export interface GoodsDraft {
  title?: string;
  price?: string;
  imagePath?: string;
  detailContent?: string;
  type?: number;
}

function GoodsEditor({ value, onChange }: PartEditorProps<GoodsDraft>) {
  const { t } = useTranslation();
  const v = value ?? {};
  const set = (field: keyof GoodsDraft, text: string) => {
    const next: GoodsDraft = { ...v, [field]: text };
    if (text.trim() === '' && field !== 'title' && field !== 'detailContent') delete next[field];
    onChange(next);
  };
  return (
    <div className="lt-goods-editor" data-testid="goods-editor">
      <TextInput
        label={t('threadParts.goods.link')}
        name="goods-link"
        placeholder="https://"
        value={v.detailContent ?? ''}
        onChange={(text) => set('detailContent', text)}
      />
      <TextInput
        label={t('threadParts.goods.name')}
        name="goods-title"
        value={v.title ?? ''}
        maxLength={GOODS_TITLE_MAX}
        onChange={(text) => set('title', text)}
      />
      <TextInput
        label={t('threadParts.goods.price')}
        name="goods-price"
        mode="number"
        placeholder="0.00"
        append="¥"
        appendWidth="32px"
        value={v.price ?? ''}
        onChange={(text) => set('price', text)}
      />
      <TextInput
        label={t('threadParts.goods.picture')}
        name="goods-image"
        placeholder="https://"
        value={v.imagePath ?? ''}
        onChange={(text) => set('imagePath', text)}
      />
    </div>
  );
}

function GoodsView({ body }: PartViewProps<GoodsPart>) {
  const { t } = useTranslation();
  return (
    <a
      className="lt-goods-card"
      href={body.detailContent}
      target="_blank"
      rel="noopener noreferrer nofollow ugc"
      data-testid="goods-card"
    >
      {body.imagePath ? <img className="lt-goods-card__image" src={body.imagePath} alt="" loading="lazy" /> : null}
      <span className="lt-goods-card__text">
        <span className="lt-goods-card__title">{body.title}</span>
        {body.price ? <span className="lt-goods-card__price">¥{body.price}</span> : null}
        <span className="lt-goods-card__go">{t('threadParts.goods.open')}</span>
      </span>
    </a>
  );
}

export const goodsPartUi: ThreadPartUi<GoodsDraft, GoodsPart> = {
  type: 104,
  label: 'threadParts.names.104',
  icon: 'goods',
  Editor: GoodsEditor,
  View: GoodsView,
  fromView: (view) => ({
    title: view.title,
    detailContent: view.detailContent,
    ...(view.price ? { price: view.price } : {}),
    ...(view.imagePath ? { imagePath: view.imagePath } : {}),
    type: view.type,
  }),
  ready: (value) => Boolean(value?.title?.trim() && value.detailContent?.trim()),
};
