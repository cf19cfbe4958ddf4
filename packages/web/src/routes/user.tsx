import { Code, type UserProfile } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../i18n/use-translation';
import { data, Link, redirect, useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { isSuccess } from '../api/dispatcher';
import { positiveInt } from '../api/forum-queries';
import { peopleQuery, profileThreadsQuery, userProfileQuery } from '../api/people-queries';
import { forumQuery } from '../api/queries';
import { useAppContext, type AppContext } from '../app-context';
import { PluginSlot } from '../components/plugin/plugin-slot';
import { ProfileHeader, ProfileTabs, profileTabHref, readProfileParams } from '../components/people/profile-header';
import { PeopleList, ProfileThreads } from '../components/people/profile-lists';
import { UserActions } from '../components/people/user-actions';
import { Spinner } from '../components/ui';
import { useViewer } from '../hooks/use-forum';
import { ReportAction } from '../components/community/report-action';
import type { PageHead, RouteHandle } from '../routing/handle';

/** Another member's page: their threads, the threads they liked (when they allow it), whom they follow, their fans. */
export const USER_TABS = ['threads', 'liked', 'follows', 'fans'] as const;
export type UserTab = (typeof USER_TABS)[number];

interface UserLoaderData {
  head: PageHead | null;
}

export const handle: RouteHandle = {
  title: (t) => t('people.title'),
  head: (loaderData) => (loaderData as UserLoaderData | undefined)?.head ?? null,
};

/** Fetches what the tab shows, as the page will ask for it. */
async function loadTab(ctx: AppContext, profile: UserProfile, tab: UserTab, page: number, viewerId: number) {
  if (tab === 'threads' || (tab === 'liked' && profile.likesVisible)) {
    await ctx.queryClient.ensureQueryData(profileThreadsQuery(ctx.api, tab, profile.id, page, viewerId));
  }
  if (tab === 'follows' || tab === 'fans') {
    await ctx.queryClient.ensureQueryData(peopleQuery(ctx.api, tab, profile.id, page, viewerId));
  }
}

export async function loader(ctx: AppContext, { params, request }: LoaderFunctionArgs): Promise<UserLoaderData> {
  const userId = positiveInt(params.userId, 0);
  if (!userId) throw data(null, { status: 404 });
  const forum = await ctx.queryClient.ensureQueryData(forumQuery(ctx.api));
  const viewerId = isSuccess(forum) ? (forum.Data.user?.userId ?? 0) : 0;
  const url = new URL(request.url);
  // One's own page is the personal centre, where it can be edited.
  if (userId === viewerId) throw redirect(`/my${url.search}`);
  const result = await ctx.queryClient.ensureQueryData(userProfileQuery(ctx.api, userId, viewerId));
  if (result.Code === Code.RESOURCE_NOT_FOUND) throw data(null, { status: 404 });
  if (!isSuccess(result)) return { head: null };
  const { tab, page } = readProfileParams(url.searchParams, USER_TABS);
  await loadTab(ctx, result.Data, tab, page, viewerId);
  const profile = result.Data;
  return {
    head: { title: profile.nickname, ...(profile.signature ? { description: profile.signature } : {}) },
  };
}

function UserTabContent({ profile, tab, page }: { profile: UserProfile; tab: UserTab; page: number }) {
  const { t } = useTranslation();
  if (tab === 'liked' && !profile.likesVisible) {
    return (
      <p className="lt-empty" data-testid="likes-hidden">
        {t('people.likesHidden')}
      </p>
    );
  }
  if (tab === 'follows' || tab === 'fans') return <PeopleList kind={tab} userId={profile.id} page={page} />;
  return <ProfileThreads list={tab} userId={profile.id} page={page} />;
}

export function Component() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const userId = positiveInt(useParams().userId, 0);
  const viewerId = useViewer()?.userId ?? 0;
  const [search] = useSearchParams();
  const { tab, page } = readProfileParams(search, USER_TABS);
  const result = useQuery(userProfileQuery(api, userId, viewerId)).data;
  if (!result) return <Spinner />;
  if (!isSuccess(result)) {
    return (
      <section className="lt-card lt-error-page" role="alert">
        <h1>{result.Message}</h1>
        <Link to="/">{t('errors.home')}</Link>
      </section>
    );
  }
  const profile = result.Data;
  const path = `/user/${profile.id}`;
  const hrefOf = (name: UserTab) => profileTabHref(path, name, USER_TABS[0]);
  return (
    <div className="lt-page lt-profile-page" data-testid="user-page">
      <ProfileHeader
        profile={profile}
        actions={
          <>
            <UserActions user={profile} size="middle" />
            {viewerId && !profile.isMe ? (
              <ReportAction target={{ type: 0, userId: profile.id }} variant="button" />
            ) : null}
            <PluginSlot target="plugin_user" hook="user_extension_action_hook" renderData={profile} />
          </>
        }
        countHref={(name) => (name === 'follows' || name === 'fans' ? hrefOf(name) : name === 'threads' ? path : null)}
      />
      <PluginSlot target="plugin_user" hook="user_extension_left_layout_hook" renderData={profile} />
      <section className="lt-card lt-profile-section" aria-label={t(`people.tab.${tab}`)}>
        <ProfileTabs tabs={USER_TABS} current={tab} hrefOf={hrefOf} />
        <UserTabContent profile={profile} tab={tab} page={page} />
      </section>
    </div>
  );
}
