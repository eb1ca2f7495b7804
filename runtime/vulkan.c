/* The Vulkan runtime (vulkan.h) over the loader: instance and device
 * choice, host-visible storage buffers, compute pipelines through a
 * pipeline cache, command buffers recorded once and submitted with a fence,
 * and validation-layer messages turned into errors. */
#include "vulkan.h"
#include "errbuf.h"
#include <vulkan/vulkan.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct StrataVkDevice {
  VkInstance instance;
  VkDebugUtilsMessengerEXT messenger;
  VkPhysicalDevice physical;
  VkDevice device;
  VkQueue queue;
  uint32_t queueFamily;
  VkCommandPool pool;
  VkPipelineCache cache;
  VkPhysicalDeviceMemoryProperties memory;
  StrataVkFeatures features;
  /* Timestamps: bits the compute queue's counters keep (0: none), and
   * nanoseconds per tick. */
  uint32_t timestampValidBits;
  float timestampPeriod;
  char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
  /* The validation layer's first message since the last check, and how
   * many came. */
  char message[1024];
  size_t numMessages;
};

struct StrataVkBuffer {
  StrataVkDevice *dev;
  VkBuffer buffer;
  VkDeviceMemory memory;
  void *mapped;
  size_t bytes;
};

struct StrataVkShader {
  StrataVkDevice *dev;
  VkShaderModule module;
};

struct StrataVkPipeline {
  StrataVkDevice *dev;
  VkDescriptorSetLayout setLayout;
  VkPipelineLayout layout;
  VkPipeline pipeline;
  size_t numBindings;
};

struct StrataVkCommands {
  StrataVkDevice *dev;
  VkCommandBuffer buffer;
  VkDescriptorPool descriptors;
  VkFence fence;
  bool recorded; /* a command was recorded: the next one waits for it */
  VkQueryPool queries; /* timestamps, when enabled */
  uint32_t numQueries, maxQueries;
};

static const char *vkResultName(VkResult r) {
  switch (r) {
  case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
  case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
  case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
  case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
  case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
  case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
  case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
  case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
  case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
  case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
  case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
  case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
  case VK_TIMEOUT: return "VK_TIMEOUT";
  default: return "a Vulkan error";
  }
}


#define VK_FAIL(what, code) rtFailf(err, errSize, "Vulkan: %s failed: %s (%d)", what, vkResultName(code), (int)(code))

/* ---- Validation messages ---- */

static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                VkDebugUtilsMessageTypeFlagsEXT types,
                                                const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
  (void)severity, (void)types;
  StrataVkDevice *dev = user;
  if (!dev->numMessages++)
    snprintf(dev->message, sizeof dev->message, "%s", data && data->pMessage ? data->pMessage : "(no text)");
  return VK_FALSE;
}

/* False (with the layer's first message in `err`) if the validation layer
 * spoke since the last check; the count starts again. */
static bool validated(StrataVkDevice *dev, char *err, size_t errSize) {
  if (!dev->numMessages) return true;
  size_t n = dev->numMessages;
  dev->numMessages = 0;
  return rtFailf(err, errSize, "Vulkan validation layer: %s%s", dev->message,
              n > 1 ? " (and more messages after it)" : "");
}

static bool hasValidationLayer(void) {
  uint32_t n = 0;
  if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS || !n) return false;
  VkLayerProperties *layers = calloc(n, sizeof *layers);
  bool found = false;
  if (layers && vkEnumerateInstanceLayerProperties(&n, layers) == VK_SUCCESS)
    for (uint32_t i = 0; i < n && !found; i++) found = !strcmp(layers[i].layerName, "VK_LAYER_KHRONOS_validation");
  free(layers);
  return found;
}

/* ---- Instance and devices ---- */

static void closeInstance(StrataVkDevice *dev, VkInstance instance) {
  if (dev && dev->messenger) {
    PFN_vkDestroyDebugUtilsMessengerEXT destroy =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT");
    if (destroy) destroy(instance, dev->messenger, NULL);
  }
  vkDestroyInstance(instance, NULL);
}

static const char *deviceType(VkPhysicalDeviceType t) {
  switch (t) {
  case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
  case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
  case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
  case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
  default: return "other";
  }
}

/* An instance (validation on `dev` if non-NULL) and its physical devices
 * (malloc'ed, count in *n). False after an error. */
static bool openInstance(StrataVkDevice *dev, VkInstance *instance, VkPhysicalDevice **devices, uint32_t *n,
                         char *err, size_t errSize) {
  static const char *const kLayer = "VK_LAYER_KHRONOS_validation";
  static const char *const kDebugUtils = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  if (dev && !hasValidationLayer())
    return rtFailf(err, errSize, "Vulkan validation was asked for and VK_LAYER_KHRONOS_validation is not installed "
                "(package vulkan-validationlayers)");
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "strata",
                           .apiVersion = VK_API_VERSION_1_2};
  VkDebugUtilsMessengerCreateInfoEXT debug = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
      .pfnUserCallback = onMessage,
      .pUserData = dev};
  VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
  if (dev) {
    /* Chained here too, the messenger also hears instance creation. */
    info.pNext = &debug;
    info.enabledLayerCount = 1, info.ppEnabledLayerNames = &kLayer;
    info.enabledExtensionCount = 1, info.ppEnabledExtensionNames = &kDebugUtils;
  }
  VkResult r = vkCreateInstance(&info, NULL, instance);
  if (r == VK_ERROR_INCOMPATIBLE_DRIVER)
    return rtFailf(err, errSize, "no Vulkan driver is installed (vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER; "
                "lavapipe is in package mesa-vulkan-drivers)");
  if (r != VK_SUCCESS) return VK_FAIL("vkCreateInstance", r);
  if (dev) {
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(*instance, "vkCreateDebugUtilsMessengerEXT");
    if (!create || (r = create(*instance, &debug, NULL, &dev->messenger)) != VK_SUCCESS) {
      vkDestroyInstance(*instance, NULL);
      return VK_FAIL("vkCreateDebugUtilsMessengerEXT", create ? r : VK_ERROR_EXTENSION_NOT_PRESENT);
    }
  }
  *n = 0;
  *devices = NULL;
  r = vkEnumeratePhysicalDevices(*instance, n, NULL);
  if (r == VK_SUCCESS && *n && !(*devices = calloc(*n, sizeof **devices))) r = VK_ERROR_OUT_OF_HOST_MEMORY;
  if (r == VK_SUCCESS && *n) r = vkEnumeratePhysicalDevices(*instance, n, *devices);
  if (r == VK_SUCCESS && !*n) rtFailf(err, errSize, "no Vulkan device (the loader found a driver and no device)");
  else if (r != VK_SUCCESS && r != VK_INCOMPLETE) VK_FAIL("vkEnumeratePhysicalDevices", r);
  else return true;
  free(*devices);
  closeInstance(dev, *instance);
  return false;
}

char *strataVkListDevices(char *err, size_t errSize) {
  VkInstance instance;
  VkPhysicalDevice *devices;
  uint32_t n;
  if (!openInstance(NULL, &instance, &devices, &n, err, errSize)) return NULL;
  size_t cap = (size_t)n * 400 + 1;
  char *text = malloc(cap);
  size_t len = 0;
  if (text) {
    text[0] = '\0';
    for (uint32_t i = 0; i < n; i++) {
      VkPhysicalDeviceProperties p;
      vkGetPhysicalDeviceProperties(devices[i], &p);
      len += (size_t)snprintf(text + len, cap - len, "%u: %s (%s, Vulkan %u.%u.%u)\n", i, p.deviceName,
                              deviceType(p.deviceType), VK_API_VERSION_MAJOR(p.apiVersion),
                              VK_API_VERSION_MINOR(p.apiVersion), VK_API_VERSION_PATCH(p.apiVersion));
    }
  } else {
    rtFailf(err, errSize, "out of memory");
  }
  free(devices);
  closeInstance(NULL, instance);
  return text;
}

/* Clears the features $STRATA_VK_DISABLE_FEATURES names (vulkan.h). False
 * after an error in `err` (an unknown name). */
static bool maskFeatures(VkPhysicalDeviceFeatures *f, VkPhysicalDeviceVulkan11Features *f11,
                         VkPhysicalDeviceVulkan12Features *f12, VkBool32 *rte16, char *err, size_t errSize) {
  const struct {
    const char *name;
    VkBool32 *flag;
  } known[] = {{"shaderFloat16", &f12->shaderFloat16},     {"storageBuffer16BitAccess", &f11->storageBuffer16BitAccess},
               {"shaderRoundingModeRTEFloat16", rte16},   {"shaderFloat64", &f->shaderFloat64},
               {"shaderInt64", &f->shaderInt64},          {"shaderInt16", &f->shaderInt16},
               {"shaderInt8", &f12->shaderInt8},          {"storageBuffer8BitAccess", &f12->storageBuffer8BitAccess}};
  size_t numKnown = sizeof known / sizeof known[0];
  for (const char *p = getenv("STRATA_VK_DISABLE_FEATURES"); p && *p; p += *p == ',') {
    size_t n = strcspn(p, ","), k = 0;
    while (k < numKnown && !(strlen(known[k].name) == n && !strncmp(known[k].name, p, n))) k++;
    if (k == numKnown)
      return rtFailf(err, errSize, "STRATA_VK_DISABLE_FEATURES: no feature '%.*s' to disable (shaderFloat16, "
                     "storageBuffer16BitAccess, shaderRoundingModeRTEFloat16, shaderFloat64, shaderInt64, shaderInt16, "
                     "shaderInt8, storageBuffer8BitAccess)", (int)n, p);
    *known[k].flag = VK_FALSE;
    p += n;
  }
  return true;
}

/* The features strataVkOpen enables: what the device has of those the
 * target's shaders use, less those $STRATA_VK_DISABLE_FEATURES names. False
 * after an error in `err`. */
static bool queryFeatures(StrataVkDevice *dev, VkPhysicalDeviceFeatures2 *f2, VkPhysicalDeviceVulkan11Features *f11,
                          VkPhysicalDeviceVulkan12Features *f12, char *err, size_t errSize) {
  VkPhysicalDeviceProperties p;
  vkGetPhysicalDeviceProperties(dev->physical, &p);
  snprintf(dev->name, sizeof dev->name, "%s", p.deviceName);
  *f12 = (VkPhysicalDeviceVulkan12Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  *f11 = (VkPhysicalDeviceVulkan11Features){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  *f2 = (VkPhysicalDeviceFeatures2){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  bool v12 = p.apiVersion >= VK_API_VERSION_1_2; /* the 1.1/1.2 feature structs need a 1.2 device */
  if (v12) f2->pNext = f11, f11->pNext = f12;
  vkGetPhysicalDeviceFeatures2(dev->physical, f2);
  /* Enable only what the shaders may use. */
  VkPhysicalDeviceFeatures all = f2->features;
  f2->features = (VkPhysicalDeviceFeatures){.shaderInt64 = all.shaderInt64, .shaderInt16 = all.shaderInt16,
                                            .shaderFloat64 = all.shaderFloat64};
  if (v12) {
    VkPhysicalDeviceVulkan11Features a11 = *f11;
    VkPhysicalDeviceVulkan12Features a12 = *f12;
    *f11 = (VkPhysicalDeviceVulkan11Features){.sType = a11.sType, .pNext = f12,
                                              .storageBuffer16BitAccess = a11.storageBuffer16BitAccess};
    *f12 = (VkPhysicalDeviceVulkan12Features){.sType = a12.sType, .storageBuffer8BitAccess = a12.storageBuffer8BitAccess,
                                              .shaderInt8 = a12.shaderInt8, .shaderFloat16 = a12.shaderFloat16};
  }
  VkPhysicalDeviceVulkan12Properties p12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
  if (v12) {
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p12};
    vkGetPhysicalDeviceProperties2(dev->physical, &p2);
  }
  if (!maskFeatures(&f2->features, f11, f12, &p12.shaderRoundingModeRTEFloat16, err, errSize)) return false;
  StrataVkFeatures *f = &dev->features;
  f->int64 = f2->features.shaderInt64, f->int16 = f2->features.shaderInt16, f->float64 = f2->features.shaderFloat64;
  f->int8 = v12 && f12->shaderInt8, f->float16 = v12 && f12->shaderFloat16;
  f->storage8 = v12 && f12->storageBuffer8BitAccess, f->storage16 = v12 && f11->storageBuffer16BitAccess;
  if (v12) {
    f->infNan32 = p12.shaderSignedZeroInfNanPreserveFloat32, f->infNan64 = p12.shaderSignedZeroInfNanPreserveFloat64;
    f->infNan16 = p12.shaderSignedZeroInfNanPreserveFloat16, f->rte16 = p12.shaderRoundingModeRTEFloat16;
  }
  f->maxStorageBuffers = p.limits.maxPerStageDescriptorStorageBuffers;
  f->maxInvocations = p.limits.maxComputeWorkGroupInvocations;
  for (int i = 0; i < 3; i++)
    f->maxGroupSize[i] = p.limits.maxComputeWorkGroupSize[i], f->maxGroupCount[i] = p.limits.maxComputeWorkGroupCount[i];
  f->maxBufferRange = p.limits.maxStorageBufferRange;
  dev->timestampPeriod = p.limits.timestampPeriod;
  return true;
}

StrataVkDevice *strataVkOpen(int index, bool validate, char *err, size_t errSize) {
  StrataVkDevice *dev = calloc(1, sizeof *dev);
  if (!dev) return rtFailf(err, errSize, "out of memory"), NULL;
  VkPhysicalDevice *devices;
  uint32_t n;
  if (!openInstance(validate ? dev : NULL, &dev->instance, &devices, &n, err, errSize)) {
    free(dev);
    return NULL;
  }
  bool ok = true;
  if (index < 0 || (uint32_t)index >= n)
    ok = rtFailf(err, errSize, "no Vulkan device %d (there %s %u; strata-run --target vulkan --list-devices lists them)",
              index, n == 1 ? "is" : "are", n);
  else
    dev->physical = devices[index];
  free(devices);
  if (ok) {
    uint32_t numFamilies = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(dev->physical, &numFamilies, NULL);
    VkQueueFamilyProperties families[16];
    if (numFamilies > 16) numFamilies = 16;
    vkGetPhysicalDeviceQueueFamilyProperties(dev->physical, &numFamilies, families);
    dev->queueFamily = UINT32_MAX;
    for (uint32_t i = 0; i < numFamilies && dev->queueFamily == UINT32_MAX; i++)
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) dev->queueFamily = i;
    if (dev->queueFamily == UINT32_MAX) ok = rtFailf(err, errSize, "Vulkan device %d has no compute queue", index);
    else dev->timestampValidBits = families[dev->queueFamily].timestampValidBits;
  }
  VkResult r = VK_SUCCESS;
  if (ok) {
    VkPhysicalDeviceFeatures2 f2;
    VkPhysicalDeviceVulkan11Features f11;
    VkPhysicalDeviceVulkan12Features f12;
    ok = queryFeatures(dev, &f2, &f11, &f12, err, errSize);
    vkGetPhysicalDeviceMemoryProperties(dev->physical, &dev->memory);
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                     .queueFamilyIndex = dev->queueFamily, .queueCount = 1,
                                     .pQueuePriorities = &priority};
    VkDeviceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2,
                               .queueCreateInfoCount = 1, .pQueueCreateInfos = &queue};
    if (ok && (r = vkCreateDevice(dev->physical, &info, NULL, &dev->device)) != VK_SUCCESS)
      ok = VK_FAIL("vkCreateDevice", r);
  }
  if (ok) {
    vkGetDeviceQueue(dev->device, dev->queueFamily, 0, &dev->queue);
    VkCommandPoolCreateInfo pool = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .queueFamilyIndex = dev->queueFamily};
    if ((r = vkCreateCommandPool(dev->device, &pool, NULL, &dev->pool)) != VK_SUCCESS)
      ok = VK_FAIL("vkCreateCommandPool", r);
  }
  if (ok) {
    VkPipelineCacheCreateInfo cache = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    if ((r = vkCreatePipelineCache(dev->device, &cache, NULL, &dev->cache)) != VK_SUCCESS)
      ok = VK_FAIL("vkCreatePipelineCache", r);
  }
  if (ok) ok = validated(dev, err, errSize);
  if (!ok) {
    strataVkClose(dev);
    return NULL;
  }
  return dev;
}

void strataVkClose(StrataVkDevice *dev) {
  if (!dev) return;
  if (dev->device) {
    vkDeviceWaitIdle(dev->device);
    if (dev->cache) vkDestroyPipelineCache(dev->device, dev->cache, NULL);
    if (dev->pool) vkDestroyCommandPool(dev->device, dev->pool, NULL);
    vkDestroyDevice(dev->device, NULL);
  }
  closeInstance(dev, dev->instance);
  free(dev);
}

const char *strataVkDeviceName(const StrataVkDevice *dev) { return dev->name; }
const StrataVkFeatures *strataVkDeviceFeatures(const StrataVkDevice *dev) { return &dev->features; }

/* ---- Buffers ---- */

/* A memory type of `bits` that the host can map and sees coherently,
 * device-local as well if there is one (a GPU's BAR memory; everything on
 * lavapipe). */
static bool hostVisibleType(const StrataVkDevice *dev, uint32_t bits, uint32_t *type) {
  const VkMemoryPropertyFlags need = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  bool found = false;
  for (uint32_t i = 0; i < dev->memory.memoryTypeCount; i++) {
    VkMemoryPropertyFlags f = dev->memory.memoryTypes[i].propertyFlags;
    if (!(bits & (1u << i)) || (f & need) != need) continue;
    if (!found || (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) *type = i;
    if (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) return true;
    found = true;
  }
  return found;
}

StrataVkBuffer *strataVkBufferCreate(StrataVkDevice *dev, size_t bytes, const void *init, char *err,
                                     size_t errSize) {
  StrataVkBuffer *b = calloc(1, sizeof *b);
  if (!b) return rtFailf(err, errSize, "out of memory"), NULL;
  b->dev = dev;
  b->bytes = bytes;
  size_t size = bytes < 4 ? 4 : (bytes + 3) / 4 * 4;
  VkBufferCreateInfo info = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                             .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  VkResult r = vkCreateBuffer(dev->device, &info, NULL, &b->buffer);
  bool ok = r == VK_SUCCESS || VK_FAIL("vkCreateBuffer", r);
  VkMemoryRequirements req;
  uint32_t type = 0;
  if (ok) {
    vkGetBufferMemoryRequirements(dev->device, b->buffer, &req);
    if (!hostVisibleType(dev, req.memoryTypeBits, &type))
      ok = rtFailf(err, errSize, "Vulkan device '%s' has no host-visible memory for storage buffers", dev->name);
  }
  if (ok) {
    VkMemoryAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                                  .memoryTypeIndex = type};
    if ((r = vkAllocateMemory(dev->device, &alloc, NULL, &b->memory)) != VK_SUCCESS)
      ok = rtFailf(err, errSize, "Vulkan: allocating %zu bytes failed: %s", bytes, vkResultName(r));
  }
  if (ok && (r = vkBindBufferMemory(dev->device, b->buffer, b->memory, 0)) != VK_SUCCESS)
    ok = VK_FAIL("vkBindBufferMemory", r);
  if (ok && (r = vkMapMemory(dev->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped)) != VK_SUCCESS)
    ok = VK_FAIL("vkMapMemory", r);
  if (ok) {
    memset(b->mapped, 0, size);
    if (init && bytes) memcpy(b->mapped, init, bytes);
    ok = validated(dev, err, errSize);
  }
  if (!ok) {
    strataVkBufferDestroy(b);
    return NULL;
  }
  return b;
}

void strataVkBufferDestroy(StrataVkBuffer *b) {
  if (!b) return;
  if (b->buffer) vkDestroyBuffer(b->dev->device, b->buffer, NULL);
  if (b->memory) vkFreeMemory(b->dev->device, b->memory, NULL); /* unmaps it */
  free(b);
}

static bool inRange(const StrataVkBuffer *b, size_t offset, size_t bytes, char *err, size_t errSize) {
  if (offset > b->bytes || bytes > b->bytes - offset)
    return rtFailf(err, errSize, "Vulkan: %zu bytes at %zu are outside a buffer of %zu", bytes, offset, b->bytes);
  return true;
}

bool strataVkRead(StrataVkBuffer *b, size_t offset, void *dst, size_t bytes, char *err, size_t errSize) {
  if (!inRange(b, offset, bytes, err, errSize)) return false;
  if (bytes) memcpy(dst, (const char *)b->mapped + offset, bytes);
  return true;
}

bool strataVkWrite(StrataVkBuffer *b, size_t offset, const void *src, size_t bytes, char *err, size_t errSize) {
  if (!inRange(b, offset, bytes, err, errSize)) return false;
  if (bytes) memcpy((char *)b->mapped + offset, src, bytes);
  return true;
}

/* ---- Shaders and pipelines ---- */

StrataVkShader *strataVkShaderCreate(StrataVkDevice *dev, const uint32_t *words, size_t bytes, char *err,
                                     size_t errSize) {
  if (!bytes || bytes % 4) return rtFailf(err, errSize, "Vulkan: SPIR-V of %zu bytes is not whole words", bytes), NULL;
  StrataVkShader *s = calloc(1, sizeof *s);
  if (!s) return rtFailf(err, errSize, "out of memory"), NULL;
  s->dev = dev;
  VkShaderModuleCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = bytes,
                                   .pCode = words};
  VkResult r = vkCreateShaderModule(dev->device, &info, NULL, &s->module);
  if (r != VK_SUCCESS || !validated(dev, err, errSize)) {
    if (r != VK_SUCCESS) VK_FAIL("vkCreateShaderModule", r);
    strataVkShaderDestroy(s);
    return NULL;
  }
  return s;
}

void strataVkShaderDestroy(StrataVkShader *s) {
  if (!s) return;
  if (s->module) vkDestroyShaderModule(s->dev->device, s->module, NULL);
  free(s);
}

StrataVkPipeline *strataVkPipelineCreate(StrataVkDevice *dev, StrataVkShader *shader, const char *entry,
                                         size_t numBindings, char *err, size_t errSize) {
  if (numBindings > dev->features.maxStorageBuffers)
    return rtFailf(err, errSize, "kernel '%s' binds %zu storage buffers; device '%s' allows %u", entry, numBindings,
                dev->name, dev->features.maxStorageBuffers), NULL;
  StrataVkPipeline *p = calloc(1, sizeof *p);
  VkDescriptorSetLayoutBinding *bindings = calloc(numBindings ? numBindings : 1, sizeof *bindings);
  if (!p || !bindings) {
    free(p), free(bindings);
    return rtFailf(err, errSize, "out of memory"), NULL;
  }
  p->dev = dev;
  p->numBindings = numBindings;
  for (size_t i = 0; i < numBindings; i++)
    bindings[i] = (VkDescriptorSetLayoutBinding){.binding = (uint32_t)i, .descriptorCount = 1,
                                                 .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                 .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
  VkDescriptorSetLayoutCreateInfo set = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                         .bindingCount = (uint32_t)numBindings, .pBindings = bindings};
  VkResult r = vkCreateDescriptorSetLayout(dev->device, &set, NULL, &p->setLayout);
  bool ok = r == VK_SUCCESS || VK_FAIL("vkCreateDescriptorSetLayout", r);
  free(bindings);
  if (ok) {
    VkPipelineLayoutCreateInfo layout = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                         .pSetLayouts = &p->setLayout};
    if ((r = vkCreatePipelineLayout(dev->device, &layout, NULL, &p->layout)) != VK_SUCCESS)
      ok = VK_FAIL("vkCreatePipelineLayout", r);
  }
  if (ok) {
    VkComputePipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = shader->module, .pName = entry},
        .layout = p->layout};
    if ((r = vkCreateComputePipelines(dev->device, dev->cache, 1, &info, NULL, &p->pipeline)) != VK_SUCCESS)
      ok = rtFailf(err, errSize, "Vulkan: creating the pipeline of kernel '%s' failed: %s", entry, vkResultName(r));
  }
  if (ok) ok = validated(dev, err, errSize);
  if (!ok) {
    strataVkPipelineDestroy(p);
    return NULL;
  }
  return p;
}

void strataVkPipelineDestroy(StrataVkPipeline *p) {
  if (!p) return;
  VkDevice d = p->dev->device;
  if (p->pipeline) vkDestroyPipeline(d, p->pipeline, NULL);
  if (p->layout) vkDestroyPipelineLayout(d, p->layout, NULL);
  if (p->setLayout) vkDestroyDescriptorSetLayout(d, p->setLayout, NULL);
  free(p);
}

/* ---- Commands ---- */

StrataVkCommands *strataVkCommandsBegin(StrataVkDevice *dev, size_t maxDispatches, size_t maxBindings, char *err,
                                        size_t errSize) {
  StrataVkCommands *c = calloc(1, sizeof *c);
  if (!c) return rtFailf(err, errSize, "out of memory"), NULL;
  c->dev = dev;
  VkDescriptorPoolSize size = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                               .descriptorCount = (uint32_t)(maxBindings ? maxBindings : 1)};
  VkDescriptorPoolCreateInfo pool = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = (uint32_t)(maxDispatches ? maxDispatches : 1), .poolSizeCount = 1,
                                     .pPoolSizes = &size};
  VkResult r = vkCreateDescriptorPool(dev->device, &pool, NULL, &c->descriptors);
  bool ok = r == VK_SUCCESS || VK_FAIL("vkCreateDescriptorPool", r);
  if (ok) {
    VkCommandBufferAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                         .commandPool = dev->pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                         .commandBufferCount = 1};
    if ((r = vkAllocateCommandBuffers(dev->device, &alloc, &c->buffer)) != VK_SUCCESS)
      ok = VK_FAIL("vkAllocateCommandBuffers", r);
  }
  if (ok) {
    VkFenceCreateInfo fence = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if ((r = vkCreateFence(dev->device, &fence, NULL, &c->fence)) != VK_SUCCESS) ok = VK_FAIL("vkCreateFence", r);
  }
  if (ok) {
    /* Recorded once, submitted at every call. */
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    if ((r = vkBeginCommandBuffer(c->buffer, &begin)) != VK_SUCCESS) ok = VK_FAIL("vkBeginCommandBuffer", r);
  }
  if (ok) ok = validated(dev, err, errSize);
  if (!ok) {
    strataVkCommandsDestroy(c);
    return NULL;
  }
  return c;
}

/* Makes what the commands so far wrote visible to the next command (a
 * dispatch or a copy), or to the host at the end. */
static void barrier(StrataVkCommands *c, bool toHost) {
  if (!c->recorded) return;
  VkMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                       .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                       .dstAccessMask = toHost ? VK_ACCESS_HOST_READ_BIT
                                               : VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                                     VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
  VkPipelineStageFlags both = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
  vkCmdPipelineBarrier(c->buffer, both, toHost ? VK_PIPELINE_STAGE_HOST_BIT : both, 0, 1, &b, 0, NULL, 0, NULL);
}

/* Writes the next timestamp, if they are on: when every command recorded
 * before it has completed. */
static void timestamp(StrataVkCommands *c) {
  if (!c->queries || c->numQueries >= c->maxQueries) return;
  vkCmdWriteTimestamp(c->buffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->queries, c->numQueries++);
}

bool strataVkCmdDispatch(StrataVkCommands *c, StrataVkPipeline *p, StrataVkBuffer *const *buffers, size_t numBuffers,
                         const uint32_t groups[3], char *err, size_t errSize) {
  const StrataVkFeatures *f = &c->dev->features;
  for (int i = 0; i < 3; i++)
    if (groups[i] > f->maxGroupCount[i])
      return rtFailf(err, errSize, "%u workgroups in dimension %d; device '%s' dispatches at most %u", groups[i], i,
                  c->dev->name, f->maxGroupCount[i]);
  if (numBuffers != p->numBindings)
    return rtFailf(err, errSize, "Vulkan: %zu buffers for a pipeline of %zu bindings", numBuffers, p->numBindings);
  VkDescriptorSet set;
  VkDescriptorSetAllocateInfo alloc = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = c->descriptors, .descriptorSetCount = 1,
                                       .pSetLayouts = &p->setLayout};
  VkResult r = vkAllocateDescriptorSets(c->dev->device, &alloc, &set);
  if (r != VK_SUCCESS) return VK_FAIL("vkAllocateDescriptorSets", r);
  VkDescriptorBufferInfo *infos = calloc(numBuffers ? numBuffers : 1, sizeof *infos);
  VkWriteDescriptorSet *writes = calloc(numBuffers ? numBuffers : 1, sizeof *writes);
  if (!infos || !writes) {
    free(infos), free(writes);
    return rtFailf(err, errSize, "out of memory");
  }
  bool ok = true;
  for (size_t i = 0; i < numBuffers; i++) {
    if (buffers[i]->bytes > f->maxBufferRange)
      ok = rtFailf(err, errSize, "a buffer of %zu bytes; device '%s' binds at most %llu bytes", buffers[i]->bytes,
                c->dev->name, (unsigned long long)f->maxBufferRange);
    infos[i] = (VkDescriptorBufferInfo){.buffer = buffers[i]->buffer, .range = VK_WHOLE_SIZE};
    writes[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                       .dstBinding = (uint32_t)i, .descriptorCount = 1,
                                       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &infos[i]};
  }
  if (ok) {
    vkUpdateDescriptorSets(c->dev->device, (uint32_t)numBuffers, writes, 0, NULL);
    barrier(c, false);
    timestamp(c);
    vkCmdBindPipeline(c->buffer, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    vkCmdBindDescriptorSets(c->buffer, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &set, 0, NULL);
    vkCmdDispatch(c->buffer, groups[0], groups[1], groups[2]);
    timestamp(c);
    c->recorded = true;
  }
  free(infos), free(writes);
  return ok && validated(c->dev, err, errSize);
}

bool strataVkCmdCopy(StrataVkCommands *c, StrataVkBuffer *src, StrataVkBuffer *dst, const StrataVkCopyRegion *regions,
                     size_t numRegions, char *err, size_t errSize) {
  if (!numRegions) return true;
  VkBufferCopy *copies = calloc(numRegions, sizeof *copies);
  if (!copies) return rtFailf(err, errSize, "out of memory");
  bool ok = true;
  for (size_t i = 0; i < numRegions && ok; i++) {
    const StrataVkCopyRegion *g = &regions[i];
    ok = inRange(src, g->srcOffset, g->bytes, err, errSize) && inRange(dst, g->dstOffset, g->bytes, err, errSize);
    copies[i] = (VkBufferCopy){.srcOffset = g->srcOffset, .dstOffset = g->dstOffset, .size = g->bytes};
  }
  if (ok) {
    barrier(c, false);
    timestamp(c);
    vkCmdCopyBuffer(c->buffer, src->buffer, dst->buffer, (uint32_t)numRegions, copies);
    timestamp(c);
    c->recorded = true;
  }
  free(copies);
  return ok && validated(c->dev, err, errSize);
}

bool strataVkCommandsEnd(StrataVkCommands *c, char *err, size_t errSize) {
  barrier(c, true);
  VkResult r = vkEndCommandBuffer(c->buffer);
  if (r != VK_SUCCESS) return VK_FAIL("vkEndCommandBuffer", r);
  return validated(c->dev, err, errSize);
}

bool strataVkSubmit(StrataVkCommands *c, char *err, size_t errSize) {
  VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                         .pCommandBuffers = &c->buffer};
  VkResult r = vkQueueSubmit(c->dev->queue, 1, &submit, c->fence);
  if (r != VK_SUCCESS) return VK_FAIL("vkQueueSubmit", r);
  r = vkWaitForFences(c->dev->device, 1, &c->fence, VK_TRUE, UINT64_MAX);
  VkResult reset = vkResetFences(c->dev->device, 1, &c->fence);
  if (r != VK_SUCCESS) return VK_FAIL("vkWaitForFences", r);
  if (reset != VK_SUCCESS) return VK_FAIL("vkResetFences", reset);
  return validated(c->dev, err, errSize);
}

void strataVkCommandsDestroy(StrataVkCommands *c) {
  if (!c) return;
  VkDevice d = c->dev->device;
  if (c->fence) vkDestroyFence(d, c->fence, NULL);
  if (c->queries) vkDestroyQueryPool(d, c->queries, NULL);
  if (c->buffer) vkFreeCommandBuffers(d, c->dev->pool, 1, &c->buffer);
  if (c->descriptors) vkDestroyDescriptorPool(d, c->descriptors, NULL);
  free(c);
}

/* ---- Timestamps ---- */

bool strataVkCommandsEnableTimestamps(StrataVkCommands *c, size_t maxCommands, char *err, size_t errSize) {
  StrataVkDevice *dev = c->dev;
  if (!dev->timestampValidBits || dev->timestampPeriod <= 0)
    return rtFailf(err, errSize, "Vulkan device '%s' cannot time kernels: its compute queue (family %u) has no "
                "timestamps (timestampValidBits %u, timestampPeriod %g)", dev->name, dev->queueFamily,
                dev->timestampValidBits, (double)dev->timestampPeriod);
  if (c->queries || c->recorded) return rtFailf(err, errSize, "Vulkan: timestamps are enabled before any command, once");
  if (maxCommands > (UINT32_MAX - 1) / 2) return rtFailf(err, errSize, "Vulkan: too many commands to time");
  c->maxQueries = 1 + 2 * (uint32_t)maxCommands;
  VkQueryPoolCreateInfo info = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = c->maxQueries};
  VkResult r = vkCreateQueryPool(dev->device, &info, NULL, &c->queries);
  if (r != VK_SUCCESS) return c->queries = VK_NULL_HANDLE, VK_FAIL("vkCreateQueryPool", r);
  vkCmdResetQueryPool(c->buffer, c->queries, 0, c->maxQueries);
  timestamp(c);
  return validated(dev, err, errSize);
}

size_t strataVkNumTimed(const StrataVkCommands *c) { return c->numQueries ? (c->numQueries - 1) / 2 : 0; }

bool strataVkReadTimestamps(StrataVkCommands *c, double *times, char *err, size_t errSize) {
  StrataVkDevice *dev = c->dev;
  if (!c->queries) return rtFailf(err, errSize, "Vulkan: timestamps were not enabled");
  uint64_t *ticks = calloc(c->numQueries, sizeof *ticks);
  if (!ticks) return rtFailf(err, errSize, "out of memory");
  VkResult r = vkGetQueryPoolResults(dev->device, c->queries, 0, c->numQueries, c->numQueries * sizeof *ticks, ticks,
                                     sizeof *ticks, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
  bool ok = r == VK_SUCCESS || VK_FAIL("vkGetQueryPoolResults", r);
  /* Ticks from the top of the buffer, modulo the counter's width (so a
   * counter that wrapped during the call still gives the right distance). */
  uint64_t mask = dev->timestampValidBits >= 64 ? UINT64_MAX : (UINT64_C(1) << dev->timestampValidBits) - 1;
  for (uint32_t i = 1; ok && i < c->numQueries; i++)
    times[i - 1] = (double)((ticks[i] - ticks[0]) & mask) * (double)dev->timestampPeriod;
  free(ticks);
  return ok && validated(dev, err, errSize);
}
