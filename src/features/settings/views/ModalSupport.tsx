import { Island } from '#views/layout/Island.tsx';
import { usePage } from '#views/layout/page-context.tsx';

/** The generic modal island (islands/ModalDialog.client.ts): `a[data-modal]` links open their page in a <dialog>. */
export function ModalSupport({ scripts }: { scripts?: Record<string, string> }) {
  const { t } = usePage();
  return (
    <Island
      name="ModalDialog"
      props={{
        labels: {
          close: t('settings.modal.close'),
          loading: t('settings.modal.loading'),
          failed: t('settings.modal.failed'),
          openPage: t('settings.modal.openPage'),
        },
        scripts,
      }}
    />
  );
}
