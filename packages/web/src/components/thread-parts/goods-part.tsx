import { GOODS_TITLE_MAX, type GoodsAnalysis, type GoodsPart } from '@luntan/shared';
import { useState } from 'react';
import { isSuccess, request } from '../../api/dispatcher';
import { endpoints } from '../../api/endpoints';
import { useTranslation } from '../../i18n/use-translation';
import { Button, TextInput } from '../ui';
import type { PartEditorProps, PartViewProps, ThreadPartUi } from './types';

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
  const [fetching, setFetching] = useState(false);
  const [problem, setProblem] = useState('');
  const set = (field: keyof GoodsDraft, text: string) => {
    const next: GoodsDraft = { ...v, [field]: text };
    if (text.trim() === '' && field !== 'title' && field !== 'detailContent') delete next[field];
    onChange(next);
  };
  // Reads the product page (goods/analysis) and fills what it found; on failure the fields stay to be typed.
  const fetchDetails = async () => {
    const address = v.detailContent?.trim() ?? '';
    if (!address) {
      setProblem(t('threadParts.goods.linkFirst'));
      return;
    }
    setFetching(true);
    setProblem('');
    try {
      const result = await request<GoodsAnalysis>({ url: endpoints.goods.analysis, method: 'POST', data: { address } });
      if (!isSuccess(result)) {
        setProblem(`${result.Message} ${t('threadParts.goods.byHand')}`.trim());
        return;
      }
      const found = result.Data;
      onChange({
        ...v,
        detailContent: address,
        title: found.title,
        type: found.type,
        ...(found.price ? { price: found.price } : {}),
        ...(found.imagePath ? { imagePath: found.imagePath } : {}),
      });
    } finally {
      setFetching(false);
    }
  };
  return (
    <div className="lt-goods-editor" data-testid="goods-editor">
      <div className="lt-goods-editor__link">
        <TextInput
          label={t('threadParts.goods.link')}
          name="goods-link"
          placeholder="https://"
          value={v.detailContent ?? ''}
          onChange={(text) => set('detailContent', text)}
        />
        <Button onClick={() => void fetchDetails()} loading={fetching} data-testid="goods-fetch">
          {t('threadParts.goods.fetch')}
        </Button>
      </div>
      {problem ? (
        <p className="lt-goods-editor__problem" role="alert" data-testid="goods-fetch-problem">
          {problem}
        </p>
      ) : null}
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
