import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../app/store';
import { Button } from '../../ui/Button';
import { signOut } from '../auth/authSlice';
import { ProfileDialog } from '../profile/ProfileDialog';

/** The signed-in user (opens «Профиль и настройки») and «Выйти». */
export function SidebarFooter() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const user = useAppSelector((state) => state.auth.user);
  const [profileOpen, setProfileOpen] = useState(false);
  return (
    <div className="sidebar-footer">
      <button type="button" className="sidebar-user" title={t('profile.open')} onClick={() => setProfileOpen(true)}>
        {user?.email}
      </button>
      {profileOpen && <ProfileDialog onClose={() => setProfileOpen(false)} />}
      <Button kind="flat" size="xs" onClick={() => void dispatch(signOut()).then(() => navigate('/login', { replace: true }))}>
        {t('sidebar.signOut')}
      </Button>
    </div>
  );
}
