/** The server's Chinese messages: account. */
export const account = {
  avatar: '头像',
  backgroundImage: '背景图',
  chooseImageUpload: '请选择要上传的图片',
  onlyJpegPngGif: '只支持 JPEG、PNG、GIF、WebP 图片',
} as const;
