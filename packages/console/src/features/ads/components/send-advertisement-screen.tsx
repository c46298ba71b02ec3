/**
 * The spec's send_advertisement screen: offers to customers' phones. Two tabs kept in the address (`tab`): a new
 * offer (the form, with its phone preview and the sending rules) and the offers sent with their progress; one
 * offer's results open with `campaign_id`. The form stays mounted while the other tab shows, so a draft survives a
 * look at the offers sent.
 */
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ADVERTISEMENT_TABS, advertisementPath, parseId, type AdvertisementTab } from '../../../shared/routes.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { NotFoundScreen } from '../../../shared/ui/not-found-screen.tsx';
import { CampaignForm } from './campaign-form.tsx';
import { CampaignList } from './campaign-list.tsx';
import { CampaignScreen } from './campaign-screen.tsx';
import './ads.css';

const TAB_LABEL_KEYS: Record<AdvertisementTab, string> = { new: 'ads.tabs.new', sent: 'ads.tabs.sent' };

export function SendAdvertisementScreen() {
  const [params] = useSearchParams();
  if (params.has('campaign_id')) {
    const campaignId = parseId(params.get('campaign_id'));
    // Keyed by the campaign: another campaign's screen starts with its own filter and dialogs.
    return campaignId === null ? <NotFoundScreen /> : <CampaignScreen key={campaignId} campaignId={campaignId} />;
  }
  return <OffersHome />;
}

function OffersHome() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const tab: AdvertisementTab = params.get('tab') === 'sent' ? 'sent' : 'new';
  return (
    <Page title={t('ads.title')}>
      <p className="page-subtitle">{t('ads.intro')}</p>
      <div className="tabs list-switch" role="tablist" aria-label={t('ads.tabs.label')}>
        {ADVERTISEMENT_TABS.map((each) => (
          <button
            key={each}
            type="button"
            role="tab"
            id={`ads-tab-${each}`}
            aria-selected={tab === each}
            aria-controls={`ads-panel-${each}`}
            className="tabs__tab"
            // Replacing the entry: Back leaves the screen rather than stepping through the tabs.
            onClick={() => setParams(each === 'new' ? {} : { tab: each }, { replace: true })}
          >
            {t(TAB_LABEL_KEYS[each])}
          </button>
        ))}
      </div>
      <div id="ads-panel-new" role="tabpanel" aria-labelledby="ads-tab-new" hidden={tab !== 'new'}>
        {/* A made offer replaces the form with its progress, so Back does not return to a sent form. */}
        <CampaignForm onCreated={(campaign) => void navigate(advertisementPath({ campaignId: campaign.id }), { replace: true })} />
      </div>
      <div id="ads-panel-sent" role="tabpanel" aria-labelledby="ads-tab-sent" hidden={tab !== 'sent'}>
        {tab === 'sent' ? <CampaignList /> : null}
      </div>
    </Page>
  );
}
