import type { UserProfile, Viewer } from '@luntan/shared';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../i18n/use-translation';
import { useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { isSuccess } from '../api/dispatcher';
import { deniedPeopleQuery, peopleQuery, profileThreadsQuery, userProfileQuery } from '../api/people-queries';
import { cachedForum } from '../api/queries';
import { useAppContext, type AppContext } from '../app-context';
import { AccountSettings } from '../components/people/account-settings';
import { AvatarEditor, BackgroundControl, ProfileForm, useImageUpload } from '../components/people/profile-editor';
import { ProfileHeader, ProfileTabs, profileTabHref, readProfileParams } from '../components/people/profile-header';
import { DeniedList, PeopleList, ProfileThreads } from '../components/people/profile-lists';
import { PluginSlot } from '../components/plugin/plugin-slot';
import { Avatar, Button, Icon, LinkButton, Spinner } from '../components/ui';
import { useForum, useViewer } from '../hooks/use-forum';
import { InviteSection } from '../components/community/invite-section';
import { useLogout } from '../layouts/shared/use-logout';
import type { RouteHandle } from '../routing/handle';
import './my.css';

export const handle: RouteHandle = { title: (t) => t('my.title') };

/** The personal centre's sections, each an address of its own (`?tab=`). */
export const MY_TABS = ['threads', 'drafts', 'liked', 'favorites', 'follows', 'fans', 'blocked', 'settings'] as const;
export type MyTab = (typeof MY_TABS)[number];

export async function loader(ctx: AppContext, { request }: LoaderFunctionArgs): Promise<null> {
  // The login guard has run: the viewer is known.
  const viewerId = cachedForum(ctx.queryClient)?.user?.userId;
  if (!viewerId) return null;
  const { tab, page } = readProfileParams(new URL(request.url).searchParams, MY_TABS);
  const q = ctx.queryClient;
  await Promise.all([
    q.ensureQueryData(userProfileQuery(ctx.api, viewerId, viewerId)),
    tab === 'threads' || tab === 'drafts' || tab === 'liked' || tab === 'favorites'
      ? q.ensureQueryData(profileThreadsQuery(ctx.api, tab, viewerId, page, viewerId))
      : null,
    tab === 'follows' || tab === 'fans' ? q.ensureQueryData(peopleQuery(ctx.api, tab, viewerId, page, viewerId)) : null,
    tab === 'blocked' ? q.ensureQueryData(deniedPeopleQuery(ctx.api, page, viewerId)) : null,
  ]);
  return null;
}

function MyTabContent({ profile, tab, page }: { profile: UserProfile; tab: MyTab; page: number }) {
  if (tab === 'settings') return <AccountSettings profile={profile} />;
  if (tab === 'blocked') return <DeniedList page={page} />;
  if (tab === 'follows' || tab === 'fans') return <PeopleList kind={tab} userId={profile.id} page={page} />;
  return <ProfileThreads list={tab} userId={profile.id} page={page} />;
}

/** Edit, the back office for an administrator, and log out. */
function OwnActions({ viewer, onEdit }: { viewer: Viewer; onEdit?: () => void }) {
  const { t } = useTranslation();
  const { logOut, pending } = useLogout();
  return (
    <div className="lt-user-actions">
      {onEdit ? (
        <Button type="primary" onClick={onEdit} data-testid="profile-edit">
          {t('my.edit')}
        </Button>
      ) : null}
      <LinkButton to="/wallet" icon={<Icon name="wallet" size={16} />} data-testid="my-wallet">
        {t('money.menu')}
      </LinkButton>
      {viewer.isAdmin ? <LinkButton to="/admin">{t('admin.enter')}</LinkButton> : null}
      <Button type="danger" onClick={logOut} loading={pending} data-testid="my-logout">
        {t('nav.logout')}
      </Button>
    </div>
  );
}

/** When the profile could not be read: the viewer's name and the way out, as before. */
function FallbackHeader({ viewer, message }: { viewer: Viewer; message: string }) {
  const name = viewer.nickname || viewer.username;
  return (
    <section className="lt-card lt-profile lt-profile--fallback" aria-label={name}>
      <div className="lt-profile__body">
        <Avatar image={viewer.avatarUrl} text={name} size="big" circle alt={name} />
        <div className="lt-profile__who">
          <h1 className="lt-profile__name" data-testid="my-name">
            {name}
          </h1>
          <p className="lt-profile__meta">@{viewer.username}</p>
          <p className="lt-signature lt-signature--empty">{message}</p>
        </div>
        <div className="lt-profile__actions">
          <OwnActions viewer={viewer} />
        </div>
      </div>
    </section>
  );
}

function MyHeader({ viewer, profile }: { viewer: Viewer; profile: UserProfile }) {
  const [editing, setEditing] = useState(false);
  const avatar = useImageUpload('avatar');
  const background = useImageUpload('background');
  const path = '/my';
  return (
    <>
      <ProfileHeader
        profile={profile}
        nameTestId="my-name"
        avatar={<AvatarEditor profile={profile} upload={avatar} />}
        coverControl={<BackgroundControl upload={background} />}
        coverPreview={background.preview}
        actions={<OwnActions viewer={viewer} onEdit={editing ? undefined : () => setEditing(true)} />}
        countHref={(name) =>
          name === 'follows' || name === 'fans' || name === 'threads' ? profileTabHref(path, name, MY_TABS[0]) : null
        }
      />
      {editing ? <ProfileForm profile={profile} onDone={() => setEditing(false)} /> : null}
    </>
  );
}

/** The personal centre: one's own header (editable), threads, drafts, likes, favourites, people, settings. */
export function Component() {
  const { t } = useTranslation();
  const { api } = useAppContext();
  const viewer = useViewer();
  const { forum } = useForum();
  const [search] = useSearchParams();
  const { tab, page } = readProfileParams(search, MY_TABS);
  const viewerId = viewer?.userId ?? 0;
  const result = useQuery({ ...userProfileQuery(api, viewerId, viewerId), enabled: viewerId > 0 }).data;
  if (!viewer) return null;
  if (!result) return <Spinner />;
  if (!isSuccess(result)) return <FallbackHeader viewer={viewer} message={result.Message} />;
  const profile = result.Data;
  return (
    <div className="lt-page lt-profile-page lt-my" data-testid="my-page">
      <MyHeader viewer={viewer} profile={profile} />
      <PluginSlot target="plugin_user" hook="user_extension_left_layout_hook" renderData={profile} />
      <section className="lt-card lt-profile-section" aria-label={t(`people.tab.${tab}`)}>
        <ProfileTabs tabs={MY_TABS} current={tab} hrefOf={(name) => profileTabHref('/my', name, MY_TABS[0])} />
        <MyTabContent profile={profile} tab={tab} page={page} />
      </section>
      {forum?.other.canInviteUserScale ? <InviteSection userId={viewer.userId} isAdmin={viewer.isAdmin} /> : null}
    </div>
  );
}
