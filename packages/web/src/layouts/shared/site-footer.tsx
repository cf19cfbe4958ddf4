import { isLocale, type Locale } from '@luntan/shared';
import { useTranslation } from '../../i18n/use-translation';
import { useMatches } from 'react-router';
import { PluginSlot } from '../../components/plugin/plugin-slot';
import { useForum } from '../../hooks/use-forum';
import { htmlLang, switchLanguage, writeLocaleCookie } from '../../i18n/runtime';
import './site-footer.css';

const LANGUAGES: ReadonlyArray<{ locale: Locale; name: string }> = [
  { locale: 'zh', name: '中文' },
  { locale: 'en', name: 'English' },
];

/** The public-security record number is the digits of the record text (e.g. 京公网安备 11010502030143号). */
export function recordCodeNumber(recordCode: string): string {
  return recordCode.replace(/\D/g, '');
}

function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = isLocale(i18n.language) ? i18n.language : 'zh';
  return (
    <div className="lt-footer__languages" role="group" aria-label={t('footer.language')}>
      {LANGUAGES.map(({ locale, name }) => (
        <button
          key={locale}
          type="button"
          lang={htmlLang(locale)}
          className="lt-footer__language"
          aria-pressed={current === locale}
          onClick={() => {
            writeLocaleCookie(locale);
            document.documentElement.lang = htmlLang(locale);
            void switchLanguage(i18n, locale);
          }}
        >
          {name}
        </button>
      ))}
    </div>
  );
}

/**
 * Nothing until the site settings are loaded; then the copyright line (current year, site name), the powered-by
 * line (version) and, when set, the site record text and the public-security record code with its badge.
 */
export function SiteFooter() {
  const { t } = useTranslation();
  const { forum } = useForum();
  const matches = useMatches();
  if (!forum) return null;
  const site = forum.setSite;
  const year = new Date().getFullYear();
  const onIndex = matches.some((match) => match.id === 'home');
  const copyright = (
    <>
      <p className="lt-footer__line" data-testid="footer-copyright">
        {t('footer.copyright', { year, siteName: site.siteName })}
      </p>
      <p className="lt-footer__line" data-testid="footer-powered">
        {t('footer.poweredBy', { version: site.version })}
      </p>
    </>
  );
  return (
    <footer className="lt-footer">
      <div className="lt-footer__inner">
        {onIndex ? (
          <PluginSlot target="plugin_index" hook="copyright_replace">
            {copyright}
          </PluginSlot>
        ) : (
          copyright
        )}
        {site.siteRecord || site.siteRecordCode ? (
          <p className="lt-footer__line lt-footer__records">
            {site.siteRecord ? (
              <a
                href="https://beian.miit.gov.cn/"
                target="_blank"
                rel="noopener noreferrer"
                data-testid="footer-record"
              >
                {site.siteRecord}
              </a>
            ) : null}
            {site.siteRecordCode ? (
              <a
                href={`https://beian.mps.gov.cn/#/query/webSearch?code=${recordCodeNumber(site.siteRecordCode)}`}
                target="_blank"
                rel="noopener noreferrer"
                className="lt-footer__record-code"
                data-testid="footer-record-code"
              >
                <img src="/static/police-badge.svg" alt={t('footer.recordCodeAlt')} width={16} height={16} />
                {site.siteRecordCode}
              </a>
            ) : null}
          </p>
        ) : null}
        <LanguageSwitch />
      </div>
    </footer>
  );
}
