import ArticleEditor from './ArticleEditor.tsx';
import SidebarToggle from './SidebarToggle.tsx';
import FeedbackThread from './FeedbackThread.tsx';
import ConfirmForm from './ConfirmForm.tsx';
import StatusWatch from './StatusWatch.tsx';
import BylineEditor from './BylineEditor.tsx';
import AgreementDialog from './AgreementDialog.tsx';
import RichTextForm from './RichTextForm.tsx';
import NewPasswordFields from './NewPasswordFields.tsx';
import NotificationBell from './NotificationBell.tsx';
import OneTimeCodeBoxes from './OneTimeCodeBoxes.tsx';
import AssignEditor from './AssignEditor.tsx';
import IntroduceDialog from './IntroduceDialog.tsx';
import AlertBanner from './AlertBanner.tsx';
import PreferenceSaver from './PreferenceSaver.tsx';
import PushSubscribe from './PushSubscribe.tsx';
import ModalDialog from './ModalDialog.tsx';
import SavedCards from './SavedCards.tsx';
import RedirectCountdown from './RedirectCountdown.tsx';
import CardForm from './CardForm.tsx';
import ForumDraft from './ForumDraft.tsx';
import AnswerDraft from './AnswerDraft.tsx';
import RelativeTimes from './RelativeTimes.tsx';
import Tracker from './Tracker.tsx';

/** Server-side map of island names to components; each also has an esbuild entry of the same name. */
export const islandComponents = {
  NotificationBell,
  OneTimeCodeBoxes,
  NewPasswordFields,
  ArticleEditor,
  SidebarToggle,
  FeedbackThread,
  ConfirmForm,
  StatusWatch,
  BylineEditor,
  AgreementDialog,
  RichTextForm,
  AssignEditor,
  IntroduceDialog,
  AlertBanner,
  PreferenceSaver,
  PushSubscribe,
  ModalDialog,
  SavedCards,
  RedirectCountdown,
  CardForm,
  ForumDraft,
  AnswerDraft,
  RelativeTimes,
  Tracker,
};

export type IslandName = keyof typeof islandComponents;
export type IslandProps<N extends IslandName> = Parameters<(typeof islandComponents)[N]>[0];
