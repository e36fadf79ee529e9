"""The sRGB reference image of a photo, shared by the colour check and the benchmarks: upright,
converted from its ICC profile with LittleCMS through Pillow's ImageCms (perceptual intent),
transparent pixels shown over the renditions' background. Needs Pillow."""
import io


def upright_srgb(path, background=(255, 255, 255)):
    """The photo at full resolution as a Pillow RGB image: EXIF orientation applied, converted to
    sRGB when it embeds a profile, alpha composited over `background`."""
    from PIL import Image, ImageCms, ImageOps

    image = Image.open(path)
    image.load()
    profile = image.info.get("icc_profile")
    image = ImageOps.exif_transpose(image)
    alpha = None
    if image.mode in ("RGBA", "LA", "P", "PA"):
        image = image.convert("RGBA")
        alpha = image.getchannel("A")
        image = image.convert("RGB")
    # The profile describes the stored mode (CMYK, grey, RGB): convert from it as it is.
    if profile:
        image = ImageCms.profileToProfile(
            image, ImageCms.ImageCmsProfile(io.BytesIO(profile)), ImageCms.createProfile("sRGB"),
            renderingIntent=ImageCms.Intent.PERCEPTUAL, outputMode="RGB")
    image = image.convert("RGB")
    if alpha is not None:
        image = Image.composite(image, Image.new("RGB", image.size, background), alpha)
    return image
