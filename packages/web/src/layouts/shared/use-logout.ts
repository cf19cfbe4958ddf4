import { useNavigate } from 'react-router';
import { useAppContext } from '../../app-context';
import { logout } from '../../auth/session';
import { usePending } from '../../hooks/use-pending';

/** Log out, then go home. */
export function useLogout(): { logOut: () => void; pending: boolean } {
  const ctx = useAppContext();
  const navigate = useNavigate();
  const { pending, run } = usePending();
  const logOut = (): void => {
    if (pending) return;
    run(() => logout(ctx))
      .then(() => navigate('/'))
      .catch((error: unknown) => console.error(error));
  };
  return { logOut, pending };
}
