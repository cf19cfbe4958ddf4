import { OrderType, type OrderInfo } from '@luntan/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useNavigate } from 'react-router';
import { post } from '../api/mutate';
import { forumKey } from '../api/queries';
import { moneyText } from '../components/money/money-format';
import { PayDialog } from '../components/money/pay-dialog';
import { Button, LinkButton, Spinner, toast } from '../components/ui';
import { useForum } from '../hooks/use-forum';
import type { RouteHandle } from '../routing/handle';
import '../components/money/money.css';
import { endpoints } from '../api/endpoints';

export const handle: RouteHandle = { title: (t) => t('money.invite.title') };

/**
 * Paid joining (siteMode `pay`): the site's name, introduction, price and how long membership lasts, and the pay
 * button (an order of type 1 through the pay dialog). The API sends a member who has not paid here (-3006); once
 * paid, home.
 */
export function Component() {
  const { t } = useTranslation();
  const { forum } = useForum();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [paying, setPaying] = useState(false);
  if (!forum) return <Spinner />;
  const site = forum.setSite;
  // Only a member the site asks to pay (forum says paid: false) is offered the payment.
  const owes = forum.user?.paid === false;
  const name = site.siteName.trim();
  // "Join Welcome" reads oddly: a site without a name is joined under the page's own title.
  const heading = name ? t('money.invite.heading', { site: name }) : t('money.invite.title');

  const paid = async (_order: OrderInfo): Promise<void> => {
    setPaying(false);
    toast.success(t('money.invite.paid'));
    // The viewer's standing changed: read the forum (and its abilities) again before going home.
    await queryClient.invalidateQueries({ queryKey: forumKey });
    await navigate('/');
  };

  return (
    <div className="lt-page lt-invite" data-testid="partner-invite-page">
      <section className="lt-card lt-invite__card">
        <h1 className="lt-page__title">{heading}</h1>
        {site.siteIntroduction ? <p className="lt-invite__intro">{site.siteIntroduction}</p> : null}
        {site.siteMode === 'pay' && owes ? (
          <>
            <p className="lt-card__text">{t('money.invite.intro')}</p>
            <dl className="lt-pay__summary">
              <div>
                <dt>{t('money.invite.price')}</dt>
                <dd className="lt-pay__amount" data-testid="invite-price">
                  {moneyText(t, site.sitePrice)}
                </dd>
              </div>
              <div>
                <dt>{t('money.invite.duration')}</dt>
                <dd data-testid="invite-duration">
                  {site.siteExpire > 0 ? t('money.invite.days', { count: site.siteExpire }) : t('money.invite.forever')}
                </dd>
              </div>
            </dl>
            <div>
              <Button type="primary" size="large" onClick={() => setPaying(true)} data-testid="invite-pay">
                {t('money.invite.pay')}
              </Button>
            </div>
            <PayDialog
              open={paying}
              onClose={() => setPaying(false)}
              createOrder={() => post<OrderInfo>(endpoints.orders.create, { type: OrderType.REGISTER })}
              onPaid={(order) => void paid(order)}
              returnPath="/"
              title={heading}
            />
          </>
        ) : (
          <>
            <p className="lt-card__text">
              {site.siteMode === 'pay' ? t('money.invite.alreadyPaid') : t('money.invite.notPaySite')}
            </p>
            <div>
              <LinkButton to="/" type="primary">
                {t('money.invite.goHome')}
              </LinkButton>
            </div>
          </>
        )}
      </section>
    </div>
  );
}
