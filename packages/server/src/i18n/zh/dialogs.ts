/** The server's Chinese messages: dialogs. */
export const dialogs = {
  noSuchConversation: '对话不存在',
  conversationNotYours: '这不是你的对话',
  youCannotSendYourself: '不能给自己发私信',
  imageNotFound: '找不到这张图片',
  imageAddressNotValid: '图片地址不正确',
  recipientDoesNotExist: '收信的用户不存在',
} as const;
