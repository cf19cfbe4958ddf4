/** The server's Chinese messages: attachments. */
export const attachments = {
  image: '图片',
  chooseImageUpload: '请选择要上传的图片',
  imageNotFound: '图片不存在',
  imageEmpty: '图片是空的',
  onlyJpegPngGif: '只支持 JPEG、PNG、GIF、WebP 图片',
} as const;
