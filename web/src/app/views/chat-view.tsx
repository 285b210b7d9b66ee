import { MainChat } from "../../features/chat/components/main-chat";

export function ChatView() {
  return <MainChat />;
}
